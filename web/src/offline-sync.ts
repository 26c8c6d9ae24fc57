import { useSyncExternalStore } from 'react';
import { explain, explainField, refusedForNow } from './errors.ts';
import { queueAnswer, queueCapture, queued, unqueue, type QueuedAnswer, type QueuedCapture } from './offline-store.ts';
import { isUnreachable, problemOf, queryClient, trpc, trpcClient } from './trpc.ts';

// What was done without a network goes out when it returns: the answers in the order given, each
// at the time it was given, then the captures. Nothing is dropped silently: an answer the service
// cannot count (its card deleted meanwhile, its item answered on another device) leaves a line.

interface OfflineState {
  online: boolean;
  answers: number;
  captures: QueuedCapture[];
  /** What could not be counted, said once each until the learner dismisses them. */
  notes: string[];
  /** Why what waits was not sent though the service was reached ("not now": busy, signed out): it stays for a later try. */
  held: string;
}

let state: OfflineState = { online: navigator.onLine, answers: 0, captures: [], notes: [], held: '' };
const listeners = new Set<() => void>();
const set = (change: Partial<OfflineState>) => {
  state = { ...state, ...change };
  listeners.forEach((listener) => listener());
};

export const useOffline = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );

let userId: string | null = null;
let flushing: Promise<void> = Promise.resolve();

async function count() {
  if (!userId) return set({ answers: 0, captures: [] });
  const [answers, captures] = await Promise.all([queued('answers', userId), queued('captures', userId)]);
  set({ answers: answers.length, captures: captures.map(({ entry }) => entry) });
}

const ANSWER_NOTES: Record<string, string> = {
  not_found: 'An answer given offline was not counted: its expression was deleted meanwhile.',
  conflict: 'An answer given offline was not counted: that item was answered on another device.',
};

/** Stops a round: offline, or the service said "not now"; what waits stays, in order, for the next try. */
const hold = (error: unknown) => set(isUnreachable(error) ? { online: false } : { online: true, held: explain(error).message });

/** Sends the queues in order; stops at the first call refused for now (still offline, busy, signed out), and says why. */
async function send(user: string): Promise<void> {
  set({ held: '' });
  let sent = 0;
  for (const { position, entry } of await queued('answers', user)) {
    try {
      await trpcClient.replay.complete.mutate(entry.completion);
    } catch (error) {
      if (refusedForNow(error)) return hold(error);
      const { code } = problemOf(error);
      set({ notes: [...state.notes, ANSWER_NOTES[code] ?? `An answer given offline was not counted: ${explain(error).message}`] });
    }
    await unqueue('answers', position);
    sent += 1;
    await count();
  }
  for (const { position, entry } of await queued('captures', user)) {
    try {
      await trpcClient.library.capture.mutate({ text: entry.text, ...(entry.context ? { context: entry.context } : {}) });
    } catch (error) {
      if (refusedForNow(error)) return hold(error);
      // Refused for good (the sentence lacks the expression, the library is full): said with the words the learner typed, then dropped.
      const why = explain(error).fields.context ?? explainField(error, 'text');
      set({ notes: [...state.notes, `“${entry.text}”, captured offline, was not saved: ${why}`] });
    }
    await unqueue('captures', position);
    sent += 1;
    await count();
  }
  set({ online: true });
  // What was sent changed the library, Replay and the credits; with nothing sent, nothing is read again (every start sends).
  if (sent === 0) return;
  await Promise.all([
    queryClient.invalidateQueries(trpc.library.list.pathFilter()),
    queryClient.invalidateQueries(trpc.replay.pathFilter()),
    queryClient.invalidateQueries(trpc.credits.pathFilter()),
  ]);
}

/** Sends whatever waits, after any send under way; resolves when the queues are empty or the network is gone again. */
export function sendQueued(): Promise<void> {
  const user = userId;
  if (!user) return flushing;
  flushing = flushing.then(() => send(user)).catch(() => {});
  return flushing;
}

/** For as long as a learner is signed in: their queues are counted, and sent whenever the network returns. */
export function followQueues(signedIn: string): () => void {
  userId = signedIn;
  const online = () => {
    set({ online: true });
    void sendQueued();
  };
  const offline = () => set({ online: false });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  void count().then(() => {
    if (navigator.onLine) void sendQueued();
  });
  return () => {
    userId = null;
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}

/** Keeps an answer given offline; it is sent when the network returns. */
export async function keepAnswer(completion: QueuedAnswer['completion']): Promise<void> {
  if (!userId) return;
  await queueAnswer(userId, completion);
  set({ online: false });
  await count();
}

/** Keeps a capture made offline, shown as waiting to be sent. */
export async function keepCapture(capture: { text: string; context?: string }): Promise<void> {
  if (!userId) return;
  await queueCapture(userId, capture);
  set({ online: false });
  await count();
}

export const dismissNotes = () => set({ notes: [] });

/** Whether answers wait to be sent: a new answer joins them, so they are all sent in the order given. */
export const answersWaiting = () => state.answers > 0;
