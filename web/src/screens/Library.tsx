import { useInfiniteQuery, useMutation, type QueryFilters } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { CAPTURE_TEXT_MAX } from '../../../src/domain/limits.ts';
import { explain, explainField } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link, navigate, searchParam, useLocation } from '../router.tsx';
import { queryClient, trpc, trpcClient } from '../trpc.ts';
import { CostAfter, CostBefore, refreshCredits } from './Credits.tsx';
import { refreshForecast } from './ReplayOverview.tsx';
import { useWaitingDeletes } from '../pending-deletes.ts';
import { fallbackPoll, pendingIn, useStatusStream } from '../live-status.ts';
import { textField } from '../ui.tsx';

export type Card = inferOutput<typeof trpc.library.list>['items'][number];

export const STATUS_LABEL: Record<Card['enrichmentStatus'], string> = { pending: 'Preparing…', ready: 'Ready', failed: 'Preparation failed' };

/** A card's status as its line and its details show it: a pending card waiting out a model outage says so. */
export const statusLabel = (card: Pick<Card, 'enrichmentStatus' | 'enrichmentWaiting'>) =>
  card.enrichmentStatus === 'pending' && card.enrichmentWaiting ? `${card.enrichmentWaiting.message}…` : STATUS_LABEL[card.enrichmentStatus];
const PAGE_SIZE = 20;

export const cardPath = (cardId: string) => APP_PATHS.card.replace(':cardId', encodeURIComponent(cardId));
export const refreshLibrary = () => queryClient.invalidateQueries(trpc.library.list.pathFilter());

/** What the page may hold of one card besides the lists: its details and its review history. */
const cardFilters = (cardId: string): QueryFilters[] => [trpc.library.get.queryFilter({ cardId }), trpc.replay.reviews.queryFilter({ cardId })];
/** The card changed (retried, practised): its details and history are read again. */
export const refreshCard = (cardId: string) => Promise.all(cardFilters(cardId).map((filters) => queryClient.invalidateQueries(filters)));
/** The card is gone: its details and history leave the cache. */
export const forgetCard = (cardId: string) => cardFilters(cardId).forEach((filters) => queryClient.removeQueries(filters));

/** Capture, and the library as a compact list: one line per card, its details a click away. */
export function Library({ account }: { account: Account }) {
  useLocation();
  const search = searchParam('q');
  const live = useStatusStream();
  const [status, setStatus] = useState<{ text: string; tone: string; charged?: string }>({ text: '', tone: '' });
  const lastCaptured = useRef<string | null>(null);
  const captureInput = useRef<HTMLInputElement>(null);
  const list = useInfiniteQuery(
    trpc.library.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...(search ? { query: search } : {}) },
      {
        getNextPageParam: (page) => page.nextCursor,
        // Settled cards are pushed (live-status.ts); polling is the fallback while the stream is down.
        refetchInterval: (query) => fallbackPoll(pendingIn.cards(query.state.data), live),
      },
    ),
  );
  const deleting = useWaitingDeletes();
  const cards = (list.data?.pages.flatMap((p) => p.items) ?? []).filter((c) => !deleting.has(c.cardId));

  // A preparation that ended (a capture, a retry) was charged: the balance is read again.
  const preparing = cards.some((c) => c.enrichmentStatus === 'pending');
  useEffect(() => {
    if (!preparing) void refreshCredits();
  }, [preparing]);

  // The capture's outcome is said once its preparation is over.
  const captured = cards.find((c) => c.cardId === lastCaptured.current);
  useEffect(() => {
    if (!captured || captured.enrichmentStatus === 'pending') return;
    lastCaptured.current = null;
    void refreshForecast();
    setStatus(
      captured.enrichmentStatus === 'ready'
        ? { text: `“${captured.text}” is ready: ${captured.enrichment?.translation ?? ''}.`, tone: 'ok', charged: captured.cardId }
        : { text: `“${captured.text}” is saved, but its preparation failed. Try again from its line below.`, tone: 'error' },
    );
  }, [captured]);

  const capture = useMutation(
    trpc.library.capture.mutationOptions({
      onSuccess: ({ card, reused }) => {
        captureInput.current!.value = '';
        lastCaptured.current = reused ? null : card.cardId;
        setStatus(reused ? { text: `“${card.text}” is already in your library.`, tone: 'ok' } : { text: `Saved “${card.text}”, preparing…`, tone: '' });
        void refreshLibrary();
      },
      onError: (error) => setStatus({ text: explainField(error, 'text'), tone: 'error' }),
    }),
  );

  const onCapture = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = captureInput.current!.value.trim();
    if (!text) return setStatus({ text: 'Type or paste an English expression first.', tone: 'error' });
    capture.mutate({ text });
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
      <form className="capture" onSubmit={onCapture} noValidate aria-busy={capture.isPending}>
        <label htmlFor="capture-text" className="capture-label">
          Capture an English expression
        </label>
        <div className="row">
          <input
            id="capture-text"
            ref={captureInput}
            name="text"
            maxLength={CAPTURE_TEXT_MAX}
            autoComplete="off"
            spellCheck
            placeholder="e.g. break a leg"
            aria-describedby="capture-cost capture-status"
          />
          <button type="submit" className="primary" disabled={capture.isPending}>
            {capture.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
        <p id="capture-cost" className="hint">
          Saving is free; preparing it with the language model (translation, notes) costs credits. <CostBefore kind="capture_preparation" noun="capture" />
        </p>
        <p id="capture-status" className="status" data-tone={status.tone} role="status" aria-live="polite">
          {status.text}
          {status.charged && <CostAfter refId={status.charged} />}
        </p>
      </form>

      <div className="library-head">
        <h2 id="library-title">Your library</h2>
        <Link to={APP_PATHS.libraryImport} className="import-action">
          Import a file…
        </Link>
        <form role="search" className="row search" aria-label="Library" onSubmit={onSearch} key={search}>
          <label htmlFor="search-input" className="visually-hidden">
            Search your library
          </label>
          <input id="search-input" type="search" name="q" maxLength={CAPTURE_TEXT_MAX} defaultValue={search} placeholder="Search text or translation" />
          <button type="submit">Search</button>
        </form>
      </div>
      <p className="muted" role="status" aria-live="polite">
        {list.isPending ? 'Loading your library…' : list.isError ? explain(list.error).message : cards.length === 0 ? empty : ''}
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

function CardLine({ card, lang }: { card: Card; lang: string | undefined }) {
  const title = card.enrichment?.correctedText ?? card.text;
  const retry = useRetryPreparation(card);
  return (
    <li>
      <article className="card-line" aria-label={title}>
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
        <span className={`badge badge-${card.enrichmentStatus}`}>{statusLabel(card)}</span>
        {card.enrichmentStatus === 'failed' && (
          <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending} aria-label={`Try preparing “${card.text}” again`}>
            Try again
          </button>
        )}
      </article>
    </li>
  );
}

/** Prepares a failed card again (a retry). */
export function useRetryPreparation(card: Card) {
  return useMutation({
    mutationFn: () => trpcClient.library.retryPreparation.mutate({ cardId: card.cardId, action: 'refresh_enrichment' }),
    onSuccess: () => {
      void refreshLibrary();
      void refreshCard(card.cardId);
    },
  });
}
