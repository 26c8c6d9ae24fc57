import { useSyncExternalStore } from 'react';

// A deleted card goes from view at once, and from the service only after a few seconds in which
// the learner may undo it. Signing out sends what is waiting first, so nothing is lost.

/** How long a delete may be undone. */
const UNDO_MS = 6_000;

const waiting = new Map<string, { timer: ReturnType<typeof setTimeout>; send: () => Promise<unknown> }>();
const listeners = new Set<() => void>();
let snapshot: ReadonlySet<string> = new Set();
const changed = () => {
  snapshot = new Set(waiting.keys());
  listeners.forEach((listener) => listener());
};

export function deleteLater(cardId: string, send: () => Promise<unknown>) {
  const timer = setTimeout(() => void sendNow(cardId), UNDO_MS);
  waiting.set(cardId, { timer, send });
  changed();
}

/** Takes a waiting delete out of the queue (its timer stopped), if it is still there. */
function take(cardId: string) {
  const entry = waiting.get(cardId);
  if (entry) {
    clearTimeout(entry.timer);
    waiting.delete(cardId);
  }
  return entry;
}

export function undoDelete(cardId: string) {
  if (take(cardId)) changed();
}

async function sendNow(cardId: string) {
  const entry = take(cardId);
  if (!entry) return;
  try {
    await entry.send();
  } finally {
    changed();
  }
}

/** Sends every delete still waiting: before the session that may send them ends. */
export const sendWaitingDeletes = () => Promise.allSettled([...waiting.keys()].map(sendNow));

/** The cards deleted but not yet sent: hidden from the list meanwhile. */
export const useWaitingDeletes = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
