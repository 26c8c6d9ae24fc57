import { useInfiniteQuery, useMutation, type QueryFilters } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Account } from '../App.tsx';
import { CAPTURE_TEXT_MAX, CONTEXT_MAX } from '../../../src/domain/limits.ts';
import { explain, explainField } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link, navigate, searchParam, useLocation } from '../router.tsx';
import { isUnreachable, queryClient, trpc, trpcClient } from '../trpc.ts';
import { keepCapture, useOffline } from '../offline-sync.ts';
import {
  CostAfter,
  CostBefore,
  isOut,
  OutOfCredits,
  refreshCredits,
  RenewalChoice,
  useCredits,
  usePrepareOnRenewal,
  useRecentLedger,
  whyWaiting,
} from './Credits.tsx';
import { chargedFor, credits } from '../credits.ts';
import { formatDay } from '../time.ts';
import { refreshForecast } from './ReplayOverview.tsx';
import { useWaitingDeletes } from '../pending-deletes.ts';
import { fallbackPoll, pendingIn, useStatusStream } from '../live-status.ts';
import { textField, useNotify } from '../ui.tsx';
import { libraryListInput } from '../first-calls.ts';

export type Card = inferOutput<typeof trpc.library.list>['items'][number];

const STATUS_LABEL: Record<Card['enrichmentStatus'], string> = { pending: 'Preparing…', ready: 'Ready', failed: 'Preparation failed' };

/**
 * A card's status in a word or two, as its line and its details show it: a preparation waiting for
 * credits says so, and a pending card waiting out a model outage says that.
 */
export const statusLabel = (card: Pick<Card, 'enrichmentStatus' | 'enrichmentWaiting' | 'enrichmentError'>) =>
  waitsForCredits(card)
    ? 'Out of credits'
    : card.enrichmentStatus === 'pending' && card.enrichmentWaiting
      ? `${card.enrichmentWaiting.message}…`
      : STATUS_LABEL[card.enrichmentStatus];

export const cardPath = (cardId: string) => APP_PATHS.card.replace(':cardId', encodeURIComponent(cardId));
export const refreshLibrary = () => queryClient.invalidateQueries(trpc.library.list.pathFilter());

/** What the page may hold of one card besides the lists: its details and its review history. */
const cardFilters = (cardId: string): QueryFilters[] => [trpc.library.get.queryFilter({ cardId }), trpc.replay.reviews.queryFilter({ cardId })];
/** The card changed (retried, practised): its details and history are read again. */
export const refreshCard = (cardId: string) => Promise.all(cardFilters(cardId).map((filters) => queryClient.invalidateQueries(filters)));
/** The card is gone: its details and history leave the cache. */
export const forgetCard = (cardId: string) => cardFilters(cardId).forEach((filters) => queryClient.removeQueries(filters));

/** One capture the learner sent: saved in turn, each said on its own line until it is prepared. */
interface CaptureLine {
  key: number;
  text: string;
  state: 'queued' | 'saving' | 'saved' | 'reused' | 'refused';
  cardId?: string;
  message?: string;
  /** The learner gave the sentence they met it in. */
  withContext?: boolean;
}
/** Lines kept under the field: the newest ones. */
const CAPTURE_LINES = 20;
/**
 * From this many settled lines before the newest one, they fold into one ("4 ready, 52 credits") the learner can open: the
 * library stays in view.
 */
const FOLD_SETTLED_AT = 2;
let captureKeys = 0;

/** Whether the card's last preparation failed because the credits were used up. */
export const waitsForCredits = (card: Pick<Card, 'enrichmentStatus' | 'enrichmentError'>) =>
  card.enrichmentStatus === 'failed' && card.enrichmentError?.code === 'insufficient_credits';

/** Capture, and the library as a compact list: one line per card, its details a click away. */
export function Library({ account }: { account: Account }) {
  useLocation();
  const search = searchParam('q');
  const sort = searchParam('sort') === 'met' ? 'met' : 'newest';
  const live = useStatusStream();
  const [captures, setCaptures] = useState<CaptureLine[]>([]);
  const [fieldError, setFieldError] = useState('');
  const queue = useRef<Promise<void>>(Promise.resolve());
  const captureInput = useRef<HTMLInputElement>(null);
  const contextInput = useRef<HTMLTextAreaElement>(null);
  const wallet = useCredits().data;
  const out = isOut(wallet);
  const waitingToSend = useOffline().captures;
  const list = useInfiniteQuery(
    trpc.library.list.infiniteQueryOptions(libraryListInput(search, sort), {
      getNextPageParam: (page) => page.nextCursor,
      // Settled cards are pushed (live-status.ts); polling is the fallback while the stream is down.
      refetchInterval: (query) => fallbackPoll(pendingIn.cards(query.state.data), live),
    }),
  );
  const deleting = useWaitingDeletes();
  const cards = (list.data?.pages.flatMap((p) => p.items) ?? []).filter((c) => !deleting.has(c.cardId));
  const byId = new Map(cards.map((c) => [c.cardId, c]));

  // A preparation that ended (a capture, a retry) was charged: the balance is read again.
  const preparing = cards.some((c) => c.enrichmentStatus === 'pending');
  useEffect(() => {
    if (!preparing) void refreshCredits();
  }, [preparing]);
  // A captured card that settled joins Replay's queue.
  const settledCaptures = captures.filter((c) => c.cardId && byId.get(c.cardId)?.enrichmentStatus !== 'pending').length;
  useEffect(() => {
    if (settledCaptures > 0) void refreshForecast();
  }, [settledCaptures]);

  const update = (key: number, change: Partial<CaptureLine>) => setCaptures((old) => old.map((c) => (c.key === key ? { ...c, ...change } : c)));
  /** Saves one capture after those sent before it; what it was typed into the fields is never touched again. */
  const send = async (key: number, text: string, context: string) => {
    update(key, { state: 'saving' });
    try {
      const { card, reused } = await trpcClient.library.capture.mutate({ text, ...(context ? { context } : {}) });
      update(key, { state: reused ? 'reused' : 'saved', cardId: card.cardId, text: card.text });
      await refreshLibrary();
    } catch (error) {
      // No network: kept on the device and sent when it returns; its line is the queue's below.
      if (isUnreachable(error)) {
        await keepCapture({ text, ...(context ? { context } : {}) });
        return setCaptures((old) => old.filter((c) => c.key !== key));
      }
      update(key, { state: 'refused', message: explain(error).fields.context ?? explainField(error, 'text') });
      // The refused text goes back into the fields, unless the learner is typing something else.
      const input = captureInput.current;
      if (input && input.value.trim() === '') {
        input.value = text;
        if (contextInput.current && contextInput.current.value.trim() === '') contextInput.current.value = context;
      }
    }
  };

  const onCapture = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = captureInput.current!;
    const text = input.value.trim();
    if (!text) return setFieldError('Type or paste an English expression first.');
    setFieldError('');
    const context = contextInput.current!.value.trim();
    input.value = '';
    contextInput.current!.value = '';
    const key = (captureKeys += 1);
    setCaptures((old) => [{ key, text, state: 'queued' as const, withContext: Boolean(context) }, ...old].slice(0, CAPTURE_LINES));
    queue.current = queue.current.then(() => send(key, text, context));
  };
  const onSort = (next: string) => {
    const params = new URLSearchParams({ ...(search ? { q: search } : {}), ...(next === 'met' ? { sort: next } : {}) });
    navigate(params.size ? `${APP_PATHS.library}?${params}` : APP_PATHS.library);
  };
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = textField(new FormData(event.currentTarget), 'q').trim();
    navigate(query ? `${APP_PATHS.library}?q=${encodeURIComponent(query)}` : APP_PATHS.library);
  };

  const empty = search ? `Nothing in your library matches “${search}”.` : 'Your library is empty: capture your first expression above.';
  return (
    <section className="panel" aria-labelledby="library-heading">
      <h1 id="library-heading" className="visually-hidden" tabIndex={-1}>
        Library
      </h1>
      <form className="capture" onSubmit={onCapture} noValidate>
        <label htmlFor="capture-text" className="capture-label">
          Capture an English expression
        </label>
        <input
          id="capture-text"
          ref={captureInput}
          name="text"
          maxLength={CAPTURE_TEXT_MAX}
          autoComplete="off"
          spellCheck
          placeholder="e.g. break a leg"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby="capture-error capture-cost"
        />
        <p id="capture-error" className="field-error" role="alert">
          {fieldError}
        </p>
        <label htmlFor="capture-context" className="hint">
          The sentence you met it in (optional: it chooses the sense, and stays on the card as your example)
        </label>
        <textarea
          id="capture-context"
          ref={contextInput}
          name="context"
          rows={2}
          maxLength={CONTEXT_MAX}
          placeholder="e.g. We had a picnic on the bank of the river."
        />
        {/* After the sentence: the form reads top to bottom, on a phone too. */}
        <button type="submit" className="primary capture-save">
          Save
        </button>
        <p id="capture-cost" className="hint">
          {out ? (
            'Saving is free, and your captures are kept; preparing them (translation, notes) waits for credits.'
          ) : (
            <>
              Saving is free; preparing it with the language model (translation, notes) costs credits. <CostBefore kind="capture_preparation" />
            </>
          )}
        </p>
        <ul id="capture-status" className="capture-lines" aria-label="Your captures" aria-live="polite">
          {waitingToSend.map((queued) => (
            <li key={queued.key} className="status">
              “{queued.text}” is waiting to be sent.
            </li>
          ))}
          <CaptureLines captures={captures} byId={byId} />
        </ul>
      </form>
      <OutOfCredits waits="New captures are saved, and their preparation (translation and notes) waits for credits.">
        <RenewalChoice />
      </OutOfCredits>

      <div className="library-head">
        <h2 id="library-title">Your library</h2>
        <Link to={APP_PATHS.libraryImport} className="import-action">
          Import a file…
        </Link>
        <form role="search" className="row search" aria-label="Library" onSubmit={onSearch} key={search}>
          <label htmlFor="search-input" className="visually-hidden">
            Search your library
          </label>
          <input id="search-input" type="search" name="q" maxLength={CAPTURE_TEXT_MAX} defaultValue={search} placeholder="Text or translation" />
          <button type="submit">Search</button>
        </form>
        <label className="row sort">
          Order
          <select value={sort} onChange={(event) => onSort(event.target.value)}>
            <option value="newest">Newest first</option>
            <option value="met">Met most often</option>
          </select>
        </label>
      </div>
      <p className="muted" role="status" aria-live="polite">
        {list.isPending ? 'Loading your library…' : list.isError ? listError(list.error) : cards.length === 0 ? empty : ''}
      </p>
      <ul className="cards compact" aria-labelledby="library-title">
        {cards.map((card) => (
          <CardLine key={card.cardId} card={card} lang={account.nativeLanguage ?? undefined} />
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          More
        </button>
      )}
    </section>
  );
}

/** Offline the list is not "busy or briefly away": it comes back with the network (captures meanwhile wait on the device). */
const listError = (error: unknown) =>
  isUnreachable(error) && !navigator.onLine ? 'Your library is shown again when you are back online.' : explain(error).message;

/** A line that has nothing more to say: already in the library, or prepared. */
const settled = (line: CaptureLine, card: Card | undefined) => line.state === 'reused' || (line.state === 'saved' && card?.enrichmentStatus === 'ready');

/** The capture lines, newest first; once several have settled they fold into one line the learner can open. */
function CaptureLines({ captures, byId }: { captures: CaptureLine[]; byId: Map<string, Card> }) {
  const recent = useRecentLedger().data;
  const cardOf = (line: CaptureLine) => (line.cardId ? byId.get(line.cardId) : undefined);
  // The newest settled line stays in view: it is the answer the learner is waiting for.
  const [, ...done] = captures.filter((line) => settled(line, cardOf(line)));
  const fold = done.length >= FOLD_SETTLED_AT;
  const charged = done.reduce((sum, line) => sum + ((recent && line.cardId && line.state === 'saved' && chargedFor(recent.items, line.cardId)) || 0), 0);
  const status = (line: CaptureLine) => <CaptureStatus key={line.key} line={line} card={cardOf(line)} />;
  return (
    <>
      {captures.filter((line) => !fold || !done.includes(line)).map(status)}
      {fold && (
        <li className="status settled" data-tone="ok">
          <details>
            <summary>
              {done.length} ready{charged > 0 ? `, ${credits(charged)}` : ''}
            </summary>
            <ul>{done.map(status)}</ul>
          </details>
        </li>
      )}
    </>
  );
}

/** What became of one capture: saving, preparing, ready (and its charge), or why it waits. */
function CaptureStatus({ line, card }: { line: CaptureLine; card: Card | undefined }) {
  const wallet = useCredits().data;
  const renewal = usePrepareOnRenewal();
  const quoted = `“${line.text}”`;
  const [tone, words] = ((): [string, ReactNode] => {
    if (line.state === 'queued') return ['', `Waiting to save ${quoted}…`];
    if (line.state === 'saving') return ['', `Saving ${quoted}…`];
    if (line.state === 'refused') return ['error', `${quoted} was not saved: ${line.message ?? ''}`];
    if (line.state === 'reused') return ['ok', `${quoted} is already in your library${line.withContext ? ': your sentence is added to it' : ''}.`];
    if (!card || card.enrichmentStatus === 'pending') return ['', `Saved ${quoted}, preparing…`];
    if (card.enrichmentStatus === 'ready') {
      const ready = (
        <>
          {quoted} is ready: {card.enrichment?.translation ?? ''}.<CostAfter refId={card.cardId} />
        </>
      );
      return ['ok', ready];
    }
    if (!waitsForCredits(card)) return ['error', `${quoted} is saved, but its preparation failed. Try again from its line below.`];
    const renews = wallet ? ` on ${formatDay(wallet.periodEnd)}` : '';
    const then = renewal ? `It is prepared when your credits renew${renews}.` : `Your credits renew${renews}; try it again then.`;
    return ['error', `${quoted} is saved, but your credits are used up, so its preparation waits. ${then}`];
  })();
  return (
    <li className="status" data-tone={tone}>
      {words}
    </li>
  );
}

function CardLine({ card, lang }: { card: Card; lang: string | undefined }) {
  const title = card.enrichment?.correctedText ?? card.text;
  return (
    <li>
      <article className={`card-line${card.enrichmentStatus === 'failed' ? ' failed' : ''}`} aria-label={title}>
        <span className="card-words">
          {/* The link's name begins with the text it shows, as voice control expects; "details" says where it goes. */}
          <Link to={cardPath(card.cardId)} className="card-link" aria-label={`${title}: details`} lang="en">
            {title}
          </Link>
          {card.enrichment && (
            <span className="translation" lang={lang}>
              {card.enrichment.translation}
            </span>
          )}
        </span>
        {card.metCount > 0 && (
          <span className="muted met" title={`Met ${card.metCount} time${card.metCount === 1 ? '' : 's'} on pages`}>
            met {card.metCount}×
          </span>
        )}
        <span className={`badge badge-${card.enrichmentStatus}`}>{statusLabel(card)}</span>
        {card.enrichmentStatus === 'failed' && <RetryButton card={card} />}
      </article>
    </li>
  );
}

/** "Try again": disabled while no credit is available, and then it says why (and until when). */
export function RetryButton({ card }: { card: Card }) {
  const retry = useRetryPreparation(card);
  const notify = useNotify();
  const wallet = useCredits().data;
  const why = isOut(wallet) ? whyWaiting(wallet) : '';
  const reasonId = `retry-why-${card.cardId}`;
  return (
    <span className="retry">
      <button
        type="button"
        onClick={() => retry.mutate(undefined, { onError: (error) => notify(explain(error).message, 'error') })}
        disabled={retry.isPending || Boolean(why)}
        aria-label={`Try again: prepare “${card.text}”`}
        aria-describedby={why ? reasonId : undefined}
      >
        Try again
      </button>
      {why && (
        <span id={reasonId} className="retry-why">
          {why}
        </span>
      )}
    </span>
  );
}

/** Prepares a failed card again (a retry). */
function useRetryPreparation(card: Card) {
  return useMutation({
    mutationFn: () => trpcClient.library.retryPreparation.mutate({ cardId: card.cardId, action: 'refresh_enrichment' }),
    onSuccess: () => {
      void refreshLibrary();
      void refreshCard(card.cardId);
    },
  });
}
