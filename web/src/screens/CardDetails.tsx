import { useMutation, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import type { Account } from '../App.tsx';
import { explain } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link, navigate } from '../router.tsx';
import { problemOf, queryClient, trpc, trpcClient } from '../trpc.ts';
import { dueFromNow, formatDateTime, formatDay, fromNow } from '../time.ts';
import { useNotify } from '../ui.tsx';
import { PlayAudio } from './Audio.tsx';
import { deleteLater, undoDelete } from '../pending-deletes.ts';
import { fallbackPoll, pendingIn, useStatusStream } from '../live-status.ts';
import { RATING_WORD, refreshForecast } from './ReplayOverview.tsx';
import { forgetCard, refreshLibrary, RetryButton, statusLabel, waitsForCredits } from './Library.tsx';
import { OutOfCredits, useOutOfCredits, usePrepareOnRenewal } from './Credits.tsx';

/** One card in full: preparation, correction, scheduling; retry and delete. */
export function CardDetails({ account, cardId }: { account: Account; cardId: string }) {
  const notify = useNotify();
  const live = useStatusStream();
  const detail = useQuery(
    trpc.library.get.queryOptions(
      { cardId },
      {
        refetchInterval: (query) => fallbackPoll(pendingIn.card(query.state.data), live),
      },
    ),
  );
  const card = detail.data?.card;
  const keepMine = useMutation(
    trpc.library.rejectCorrection.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.library.get.queryKey({ cardId }), result);
        void refreshLibrary();
        notify(`Correction dropped: you practise “${result.card.text}” as you wrote it.`, 'ok');
      },
      onError: (error) => notify(explain(error).message, 'error'),
    }),
  );
  const prepareAgain = useMutation(
    trpc.library.prepareAgain.mutationOptions({
      onSuccess: (result) => {
        void queryClient.invalidateQueries({ queryKey: trpc.library.get.queryKey({ cardId }) });
        void refreshLibrary();
        notify(`Preparing “${result.card.text}” again with the current model.`, 'ok');
      },
      onError: (error) => notify(explain(error).message, 'error'),
    }),
  );
  const renewal = usePrepareOnRenewal();
  const out = useOutOfCredits();

  if (!card) {
    return (
      <section className="panel" aria-labelledby="card-heading">
        <h1 id="card-heading" tabIndex={-1}>
          {detail.isError ? 'Card not found' : 'Loading…'}
        </h1>
        {detail.isError && <p>{explain(detail.error).message}</p>}
        <p>
          <Link to={APP_PATHS.library} className="link">
            Back to your library
          </Link>
        </p>
      </section>
    );
  }
  const e = card.enrichment;
  const title = e?.correctedText ?? card.text;
  // Gone from view at once, sent after the time to undo it (src/pending-deletes.ts).
  const onDelete = () => {
    deleteLater(cardId, async () => {
      try {
        await trpcClient.library.delete.mutate({ cardId });
        forgetCard(cardId);
      } catch (error) {
        if (problemOf(error).code !== 'not_found') notify(explain(error).message, 'error');
      } finally {
        // Read again before the card stops being hidden, so that it does not flash back.
        await Promise.all([refreshLibrary(), refreshForecast()]);
      }
    });
    navigate(APP_PATHS.library);
    notify(`Deleted “${card.text}”.`, 'info', { label: 'Undo', run: () => undoDelete(cardId) });
  };
  return (
    <section className="panel card-details" aria-labelledby="card-heading">
      <p>
        <Link to={APP_PATHS.library} className="link back">
          ← Your library
        </Link>
      </p>
      <div className="card-head">
        <h1 id="card-heading" tabIndex={-1} lang="en">
          {title}
        </h1>
        <span className={`badge badge-${card.enrichmentStatus}`}>{statusLabel(card)}</span>
      </div>
      <PlayAudio subject={{ cardId }} label={title} />
      {e && (
        <p className="translation" lang={account.nativeLanguage ?? undefined}>
          {e.translation}
        </p>
      )}
      {e?.correctedText && (
        <div className="correction">
          <p>
            You wrote “<span lang="en">{card.text}</span>”. {e.correctionNote ?? ''} Replay and audio use the corrected English.
          </p>
          <button type="button" onClick={() => keepMine.mutate({ cardId })} disabled={keepMine.isPending}>
            {keepMine.isPending ? 'Saving…' : 'Keep my text'}
          </button>
        </div>
      )}
      {e && (
        <div className="usage">
          <h2>How to use it</h2>
          <p>
            <span className="register">{e.usage.register}</span> {e.usage.guidance}
          </p>
          {e.usage.examples.length > 0 && (
            <ul className="examples" aria-label="Examples">
              {e.usage.examples.map((x) => (
                <li key={x} lang="en">
                  {x}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {e && e.focuses.length > 0 && (
        <ul className="focuses" aria-label="Learning focuses">
          {e.focuses.map((f) => (
            <li key={f.kind + f.note}>
              <strong>{f.kind}</strong> {f.note}
            </li>
          ))}
        </ul>
      )}
      <CardContexts account={account} card={card} />
      {card.enrichmentStatus === 'pending' &&
        (card.enrichmentWaiting ? (
          <p className="muted" role="status">
            {card.enrichmentWaiting.message}: it is unavailable right now, and this card is prepared by itself once it is back (waiting since{' '}
            <time dateTime={card.enrichmentWaiting.since}>{formatDateTime(card.enrichmentWaiting.since)}</time>).
          </p>
        ) : (
          <p className="muted">Translation and usage notes are on their way.</p>
        ))}
      {card.enrichmentStatus === 'failed' && !waitsForCredits(card) && <p className="error-text">The preparation could not be completed. Try again.</p>}
      {waitsForCredits(card) && (
        <p className="error-text">
          Saved, but not prepared yet: your credits were used up when it was captured.{' '}
          {!out ? 'You have credits again: try again.' : renewal ? 'It is prepared when your credits renew, as you chose.' : 'Try again once you have credits.'}
        </p>
      )}
      {card.enrichmentStatus === 'failed' && <OutOfCredits waits="This card’s translation and notes wait for credits." />}
      <h2>Practice</h2>
      <p className="muted">
        {card.scheduling.reps === 0 ? 'Not practised yet' : `Practised ${card.scheduling.reps} time${card.scheduling.reps === 1 ? '' : 's'}`}
        {' · '}due{' '}
        <time dateTime={card.scheduling.due} title={formatDateTime(card.scheduling.due)}>
          {dueFromNow(card.scheduling.due)}
        </time>
        {' · '}captured {formatDay(card.createdAt)}
      </p>
      <p className="muted met-count">{metSummary(card)}</p>
      {card.preparedByModel && <p className="muted prepared-by">Prepared by {card.preparedByModel}</p>}
      <ReviewHistory cardId={cardId} />
      <div className="actions">
        {card.enrichmentStatus === 'failed' && <RetryButton card={card} />}
        {card.enrichmentStatus === 'ready' && (
          <button
            type="button"
            onClick={() => prepareAgain.mutate({ cardId })}
            disabled={prepareAgain.isPending}
            title="Prepare the card again with the current language model (uses credits)"
          >
            Prepare again
          </button>
        )}
        <button type="button" className="danger" onClick={onDelete} aria-label={`Delete “${card.text}”`}>
          Delete
        </button>
      </div>
    </section>
  );
}

type Detail = inferOutput<typeof trpc.library.get>['card'];

/** "Met 7 times, last yesterday": how often the learner met the expression on pages (encounters). */
function metSummary(card: { metCount: number; lastMetAt: string | null }): string {
  if (card.metCount === 0 || !card.lastMetAt) return 'Not met on a page yet';
  return `Met ${card.metCount} time${card.metCount === 1 ? '' : 's'}, last ${fromNow(card.lastMetAt)}`;
}

/** A sentence with the expression marked (offsets are code points, as the service counts them). */
function MarkedSentence({ text, start, end }: { text: string; start: number; end: number }) {
  const chars = Array.from(text);
  return (
    <span lang="en">
      {chars.slice(0, start).join('')}
      <mark>{chars.slice(start, end).join('')}</mark>
      {chars.slice(end).join('')}
    </span>
  );
}

/**
 * The sentences the learner met the expression in, with the one the card was prepared for named,
 * and "Prepare this sense" on the others: the learner judges whether the sense differs, and a
 * new preparation for that sentence is charged like a capture's.
 */
function CardContexts({ account, card }: { account: Account; card: Detail }) {
  const notify = useNotify();
  const prepare = useMutation(
    trpc.library.prepareSense.mutationOptions({
      onSuccess: (result) => {
        void queryClient.invalidateQueries({ queryKey: trpc.library.get.queryKey({ cardId: card.cardId }) });
        void refreshLibrary();
        notify(`Preparing “${result.card.text}” for the sense of your sentence.`, 'ok');
      },
      onError: (error) => notify(explain(error).message, 'error'),
    }),
  );
  if (card.contexts.length === 0) return null;
  const sense = card.enrichment?.sense;
  return (
    <div className="contexts">
      <h2 id="contexts-title">Where you met it</h2>
      {sense && (
        <p className="muted">
          Explained in the sense <strong lang={account.nativeLanguage ?? undefined}>{sense.gloss}</strong> (from “<span lang="en">{sense.cue}</span>”).
        </p>
      )}
      <ul className="context-list" aria-labelledby="contexts-title">
        {card.contexts.map((c) => (
          <li key={c.contextId}>
            <MarkedSentence text={c.text} start={c.start} end={c.end} />
            <span className="muted"> · {formatDay(c.createdAt)}</span>
            {c.sourceUrl && (
              <>
                {' · '}
                {/* http(s) only, as the service takes it; a new tab that cannot reach back into this one. */}
                <a href={c.sourceUrl} target="_blank" rel="noopener noreferrer nofollow" title={c.sourceUrl}>
                  Back to the moment
                </a>
              </>
            )}
            {c.contextId === card.preparedContextId ? (
              <span className="badge badge-ready context-prepared">Prepared for this sense</span>
            ) : (
              card.enrichmentStatus === 'ready' && (
                <button
                  type="button"
                  className="link-button"
                  disabled={prepare.isPending}
                  onClick={() => prepare.mutate({ cardId: card.cardId, contextId: c.contextId })}
                  title="If this sentence uses another sense, prepare the card again for it (uses credits)"
                >
                  Prepare this sense
                </button>
              )
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Review = inferOutput<typeof trpc.replay.reviews>['items'][number];

/** What each Replay review of the card was, and the evidence its rating came from. */
function ReviewHistory({ cardId }: { cardId: string }) {
  const reviews = useQuery(trpc.replay.reviews.queryOptions({ cardId })).data?.items;
  if (!reviews?.length) return null;
  const evidence = (r: Review) =>
    [
      r.autoFilled
        ? 'answer shown'
        : r.usedHint
          ? 'with a hint'
          : r.unaidedErrors
            ? `${r.unaidedErrors} letter${r.unaidedErrors === 1 ? '' : 's'} wrong first`
            : 'no mistakes',
      r.durationMs !== null ? `${Math.round(r.durationMs / 1000)} s` : null,
    ]
      .filter(Boolean)
      .join(', ');
  return (
    <>
      <h3 id="history-title">History</h3>
      <ul className="history" aria-labelledby="history-title">
        {reviews.map((r) => (
          <li key={r.reviewedAt}>
            <span className={`rating-word rating-${r.rating}`}>{RATING_WORD[r.rating]}</span>
            <span className="muted">
              {formatDateTime(r.reviewedAt)} · {evidence(r)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
