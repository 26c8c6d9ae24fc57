import type { InfiniteData, QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { StatusEvent } from '../../src/features/status/hub.ts';
import { queryClient, trpc } from './trpc.ts';

type CardPage = Awaited<ReturnType<typeof trpc.library.list.query>>;
type CardDetail = Awaited<ReturnType<typeof trpc.library.get.query>>;
type SentencePage = Awaited<ReturnType<typeof trpc.sentences.list.query>>;

/**
 * While the status stream is down, screens with something pending ask again at this slow pace;
 * while it is up they never poll: the server pushes each card's and sentence's settled status.
 */
export const FALLBACK_POLL_MS = 15_000;

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
  return useSyncExternalStore((listener) => (listeners.add(listener), () => listeners.delete(listener)), () => streaming);
}

/** A polling interval for a screen: the slow fallback while something is pending and the stream is down. */
export const fallbackPoll = (pending: boolean, live: boolean) => (pending && !live ? FALLBACK_POLL_MS : false);

/**
 * Writes what was just read into the cached queries matching `filters`, unless one of them is being
 * read already: that read may have begun before the change and land after this write, so it is
 * asked again instead (invalidating cancels it).
 */
function freshen<T>(filters: { queryKey: QueryKey; exact?: boolean }, update: (data: T) => T) {
  if (queryClient.isFetching(filters) > 0) void queryClient.invalidateQueries(filters);
  else queryClient.setQueriesData<T>(filters, (data) => data && update(data));
}

/** A card that settled: read once, then written into its details and into every list page that shows it. */
async function cardSettled(cardId: string) {
  const detail = await trpc.library.get.query({ cardId });
  freshen<CardDetail>({ queryKey: ['library.get', cardId], exact: true }, () => detail);
  freshen<InfiniteData<CardPage>>({ queryKey: ['library.list'] }, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.map((card) => (card.cardId === cardId ? { ...card, ...detail.card } : card)) })),
  }));
}

/** Possibly missed events (the stream (re)opened): whatever shows something pending is read again. */
function resync() {
  void queryClient.invalidateQueries({
    predicate: ({ queryKey: [key], state }) =>
      (key === 'library.list' && pendingIn.cards(state.data as InfiniteData<CardPage>))
      || (key === 'library.get' && pendingIn.card(state.data as CardDetail))
      || (key === 'sentences.list' && pendingIn.sentences(state.data as SentencePage)),
  });
}

function onStatus(event: StatusEvent) {
  if (event.kind === 'resync') return resync();
  // Only a card somebody looks at is read (a list or its details in the cache).
  if (event.kind === 'card' && queryClient.getQueryCache().findAll({ predicate: ({ queryKey: [key] }) => key === 'library.list' || key === 'library.get' }).length > 0) {
    return void cardSettled(event.id).catch(resync);
  }
  if (event.kind === 'sentence') void queryClient.invalidateQueries({ queryKey: ['sentences.list'] });
}

/** Listens to the signed-in learner's status stream until the returned function is called (sign-out). */
export function followStatusChanges(): () => void {
  const subscription = trpc.status.changes.subscribe(undefined, {
    onData: onStatus,
    onConnectionStateChange: ({ state }) => setStreaming(state === 'pending'),
    onError: () => setStreaming(false),
  });
  return () => {
    subscription.unsubscribe();
    setStreaming(false);
  };
}
