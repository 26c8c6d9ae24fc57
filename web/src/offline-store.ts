import { openDB, type DBSchema } from 'idb';
import type { inferInput, inferOutput } from '@trpc/tanstack-react-query';
import type { trpc } from './trpc.ts';

// What the app keeps on the device (IndexedDB) so a learner goes on without a network: the Replay
// session's remaining items (their prompts and masks, as the session gave them), the answers given
// offline and the captures made offline, each in the order given, until they are sent.

type Session = inferOutput<typeof trpc.replay.session>;
export type ReplayItem = Session['items'][number];
type Completion = inferInput<typeof trpc.replay.complete>;

/** An answer given offline: sent as it was given, at the time it was given (`answeredAt`). */
export interface QueuedAnswer {
  /** Its own key on the device; the service's key is the item (a second send of it returns the first result). */
  key: string;
  completion: Completion & { answeredAt: string };
}

/** A capture made offline, sent when the network returns; the service deduplicates it as any capture. */
export interface QueuedCapture {
  key: string;
  text: string;
  context?: string;
  madeAt: string;
}

interface OfflineSchema extends DBSchema {
  /** One record, 'current': the learner's open session as it was opened online. */
  session: { key: string; value: { userId: string; sessionId: string; items: ReplayItem[] } };
  /** Auto-incremented keys keep the order given. */
  answers: { key: number; value: QueuedAnswer & { userId: string } };
  captures: { key: number; value: QueuedCapture & { userId: string } };
}

const database = openDB<OfflineSchema>('lcs-offline', 1, {
  upgrade(db) {
    db.createObjectStore('session');
    db.createObjectStore('answers', { autoIncrement: true });
    db.createObjectStore('captures', { autoIncrement: true });
  },
});

export async function keepSession(userId: string, sessionId: string, items: ReplayItem[]): Promise<void> {
  await (await database).put('session', { userId, sessionId, items }, 'current');
}

/** The kept session's items not yet answered, on this device or before it was kept. */
export async function keptSession(userId: string): Promise<{ sessionId: string; items: ReplayItem[] } | null> {
  const db = await database;
  const kept = await db.get('session', 'current');
  if (!kept || kept.userId !== userId) return null;
  const answered = new Set((await db.getAll('answers')).map((a) => a.completion.itemId));
  const items = kept.items.filter((item) => !answered.has(item.itemId));
  return items.length ? { sessionId: kept.sessionId, items } : null;
}

export async function queueAnswer(userId: string, completion: QueuedAnswer['completion']): Promise<void> {
  await (await database).add('answers', { userId, key: crypto.randomUUID(), completion });
}

export async function queueCapture(userId: string, capture: Omit<QueuedCapture, 'key' | 'madeAt'>): Promise<QueuedCapture> {
  const queued = { ...capture, key: crypto.randomUUID(), madeAt: new Date().toISOString() };
  await (await database).add('captures', { userId, ...queued });
  return queued;
}

type Store = 'answers' | 'captures';
/** The queue in the order given, with each entry's position (to remove it once sent). */
export async function queued<S extends Store>(store: S, userId: string): Promise<{ position: number; entry: OfflineSchema[S]['value'] }[]> {
  const db = await database;
  const [keys, values] = await Promise.all([db.getAllKeys(store), db.getAll(store)]);
  return keys.map((position, i) => ({ position, entry: values[i]! })).filter(({ entry }) => entry.userId === userId);
}

export async function unqueue(store: Store, position: number): Promise<void> {
  await (await database).delete(store, position);
}

/** Sign-out: the session's prompts leave the device. */
export async function forgetKeptSession(): Promise<void> {
  await (await database).clear('session');
}
