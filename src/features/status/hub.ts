import { EventEmitter, on } from 'node:events';
import type { Logger } from 'pino';
import { listen } from '../../db/notifications.ts';
import { STATUS_CHANNEL, statusChangeSchema, type StatusChange } from './changes.ts';

/** What a learner's stream carries: a change of one of theirs, or "look again, some may be lost". */
export type StatusEvent = Omit<StatusChange, 'userId'> | { kind: 'resync' };

export interface StatusHub {
  /** The user's events from now until `signal` aborts or the hub closes. */
  changesFor(userId: string, signal: AbortSignal): AsyncGenerator<StatusEvent>;
  /** Ends every stream and stops listening (before the server closes, since streams never end by themselves). */
  close(): Promise<void>;
}

const RESYNC: StatusEvent = { kind: 'resync' };
/** The event that ends every stream; user ids are UUIDs, so it is nobody's. */
const CLOSED = 'hub closed';

/**
 * One LISTEN connection per process, opened with the first stream, fanning announcements out in
 * memory by user id: every API process listens, so a change reaches its owner whichever process
 * holds the stream. On each (re)connection every stream is told to resync.
 */
export function statusHub(databaseUrl: () => string, logger?: Pick<Logger, 'warn'>): StatusHub {
  const byUser = new EventEmitter().setMaxListeners(0);
  let stopListening: (() => Promise<void>) | undefined;
  const deliver = (payload: string | null) => {
    if (payload === null) {
      // Every stream's user (events.on also listens for 'error' and the closing event).
      for (const userId of byUser.eventNames()) if (userId !== 'error' && userId !== CLOSED) byUser.emit(userId, RESYNC);
      return;
    }
    const change = statusChangeSchema.safeParse(parseJson(payload));
    if (!change.success) return;
    const { userId, ...event } = change.data;
    byUser.emit(userId, event);
  };
  return {
    async *changesFor(userId, signal) {
      stopListening ??= listen(databaseUrl(), STATUS_CHANNEL, deliver, logger);
      const events = on(byUser, userId, { signal, close: [CLOSED] });
      try {
        yield RESYNC; // whatever settled before this stream began (a reconnection's gap)
        for await (const [event] of events) yield event as StatusEvent;
      } catch (error) {
        if (!signal.aborted) throw error;
      } finally {
        await events.return?.();
      }
    },
    async close() {
      byUser.emit(CLOSED);
      await stopListening?.();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
