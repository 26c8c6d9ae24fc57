import { matchQuery, type InfiniteData, type QueryFilters } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useSyncExternalStore } from 'react';
import type { StatusEvent } from '../../src/features/status/hub.ts';
import { queryClient, trpc, trpcClient } from './trpc.ts';

type CardPage = inferOutput<typeof trpc.library.list>;
type CardDetail = inferOutput<typeof trpc.library.get>;
type SentencePage = inferOutput<typeof trpc.sentences.list>;

/**
 * While the status stream is down, screens with something pending ask again at this slow pace;
 * while it is up they never poll: the server pushes each card's and sentence's settled status.
 */
const FALLBACK_POLL_MS = 15_000;

/** What still waits for its workflow, per screen's data: the screens poll (slowly) on it, resyncs refetch it. */
export const pendingIn = {
  cards: (data: InfiniteData<CardPage> | undefined) => Boolean(data?.pages.some((page) => page.items.some((card) => card.enrichmentStatus === 'pending'))),
  card: (data: CardDetail | undefined) => data?.card.enrichmentStatus === 'pending',
  sentences: (data: SentencePage | undefined) => Boolean(data?.items.some((sentence) => sentence.status === 'pending')),
};

let streaming = false;
const listeners = new Set<() => void>();
function setStreaming(now: boolean) {
  if (now === streaming) return;
  streaming = now;
  for (const listener of listeners) listener();
}

/** Whether the status stream is open: a screen's fallback poll runs only while it is not. */
export function useStatusStream(): boolean {
  return useSyncExternalStore(
    (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    () => streaming,
  );
}

/** A polling interval for a screen: the slow fallback while something is pending and the stream is down. */
export const fallbackPoll = (pending: boolean, live: boolean) => (pending && !live ? FALLBACK_POLL_MS : false);

/**
 * Writes what was just read into the cached queries matching `filters`, unless one of them is being
 * read already: that read may have begun before the change and land after this write, so it is
 * asked again instead (invalidating cancels it).
 */
function freshen<T>(filters: QueryFilters, update: (data: T) => T) {
  if (queryClient.isFetching(filters) > 0) void queryClient.invalidateQueries(filters);
  else queryClient.setQueriesData<T>(filters, (data) => data && update(data));
}

/** A card that settled: read once, then written into its details and into every list page that shows it. */
async function cardSettled(cardId: string) {
  const detail = await trpcClient.library.get.query({ cardId });
  freshen<CardDetail>(trpc.library.get.queryFilter({ cardId }, { exact: true }), () => detail);
  freshen<InfiniteData<CardPage>>(trpc.library.list.pathFilter(), (data) => ({
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.map((card) => (card.cardId === cardId ? { ...card, ...detail.card } : card)) })),
  }));
}

/** Possibly missed events (the stream (re)opened): whatever shows something pending is read again. */
function resync() {
  void queryClient.invalidateQueries({
    predicate: (query) =>
      (matchQuery(trpc.library.list.pathFilter(), query) && pendingIn.cards(query.state.data as InfiniteData<CardPage>)) ||
      (matchQuery(trpc.library.get.pathFilter(), query) && pendingIn.card(query.state.data as CardDetail)) ||
      (matchQuery(trpc.sentences.list.pathFilter(), query) && pendingIn.sentences(query.state.data as SentencePage)),
  });
}

const cached = (filters: QueryFilters) => queryClient.getQueryCache().findAll(filters).length > 0;

function onStatus(event: StatusEvent) {
  if (event.kind === 'resync') return resync();
  // Only a card somebody looks at is read (a list or its details in the cache).
  const showsCards = cached(trpc.library.list.pathFilter()) || cached(trpc.library.get.pathFilter());
  if (event.kind === 'card' && showsCards) return void cardSettled(event.id).catch(resync);
  if (event.kind === 'sentence') void queryClient.invalidateQueries(trpc.sentences.list.pathFilter());
  // An import moved: its progress is read again (its cards' own events stay card events).
  if (event.kind === 'import') void queryClient.invalidateQueries(trpc.library.imports.get.queryFilter({ importId: event.id }));
}

/** Listens to the signed-in learner's status stream until the returned function is called (sign-out). */
export function followStatusChanges(): () => void {
  const subscription = trpcClient.status.changes.subscribe(undefined, {
    onData: onStatus,
    onConnectionStateChange: ({ state }) => setStreaming(state === 'pending'),
    onError: () => setStreaming(false),
  });
  return () => {
    subscription.unsubscribe();
    setStreaming(false);
  };
}
