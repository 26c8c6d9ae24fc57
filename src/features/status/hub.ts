import { EventEmitter, on } from 'node:events';
import type { Logger } from 'pino';
import { listen } from '../../db/notifications.ts';
import { AppError } from '../../domain/problems.ts';
import { hashSecret } from '../../domain/tokens.ts';
import { type Revocation, revocationSchema, STATUS_CHANNEL, statusChangeSchema, type StatusChange } from './changes.ts';

/** What a learner's stream carries: a change of one of theirs, or "look again, some may be lost". */
export type StatusEvent = Omit<StatusChange, 'userId'> | { kind: 'resync' };

/** Who a stream is for: the user, and the credential it was opened with (a revocation of it ends the stream). */
interface StreamCredential {
  userId: string;
  sessionId: string | null;
  tokenId: string | null;
}

export interface StatusHub {
  /** The user's events from now until `signal` aborts, the hub closes, or the credential is revoked (then it throws `unauthenticated`). */
  changesFor(credential: StreamCredential, signal: AbortSignal): AsyncGenerator<StatusEvent>;
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
/** Which of these streams' credentials still work, in order (src/features/account/service.ts, liveCredentials). */
export type CredentialCheck = (credentials: { sessionHash: string | null; tokenId: string | null }[]) => Promise<boolean[]>;

export function statusHub(databaseUrl: () => string, logger?: Pick<Logger, 'warn'>, stillValid?: CredentialCheck): StatusHub {
  const byUser = new EventEmitter().setMaxListeners(0);
  /** Open streams, by user, with what ends each when its credential is revoked. */
  const open = new Map<string, Set<{ sessionHash: string | null; tokenId: string | null; revoke: AbortController }>>();
  let stopListening: (() => Promise<void>) | undefined;
  const revoke = (revoked: Revocation) => {
    for (const stream of open.get(revoked.userId) ?? []) {
      const session = stream.sessionHash !== null && (revoked.allSessions || revoked.sessionHash === stream.sessionHash);
      const token = stream.tokenId !== null && (revoked.allTokens || revoked.tokenId === stream.tokenId);
      if (session || token) stream.revoke.abort();
    }
  };
  /** After a gap in listening, a revocation notice may be lost: every open stream's credential is checked again. */
  const recheck = async () => {
    const streams = [...open.values()].flatMap((set) => [...set]);
    if (!stillValid || streams.length === 0) return;
    try {
      const valid = await stillValid(streams);
      streams.forEach((stream, i) => valid[i] || stream.revoke.abort());
    } catch (error) {
      logger?.warn({ err: (error as Error).message }, 'status streams: credentials could not be checked again');
    }
  };
  const deliver = (payload: string | null) => {
    if (payload === null) {
      // Every stream's user (events.on also listens for 'error' and the closing event).
      for (const userId of byUser.eventNames()) if (userId !== 'error' && userId !== CLOSED) byUser.emit(userId, RESYNC);
      void recheck();
      return;
    }
    const message = parseJson(payload);
    const revocation = revocationSchema.safeParse(message);
    if (revocation.success) return revoke(revocation.data.revoked);
    const change = statusChangeSchema.safeParse(message);
    if (!change.success) return;
    const { userId, ...event } = change.data;
    byUser.emit(userId, event);
  };
  return {
    async *changesFor({ userId, sessionId, tokenId }, signal) {
      stopListening ??= listen(databaseUrl(), STATUS_CHANNEL, deliver, logger);
      const stream = { sessionHash: sessionId === null ? null : hashSecret(sessionId), tokenId, revoke: new AbortController() };
      const streams = open.get(userId) ?? open.set(userId, new Set()).get(userId)!;
      streams.add(stream);
      const events = on(byUser, userId, { signal: AbortSignal.any([signal, stream.revoke.signal]), close: [CLOSED] });
      try {
        yield RESYNC; // whatever settled before this stream began (a reconnection's gap)
        for await (const [event] of events) yield event as StatusEvent;
      } catch (error) {
        // Ended as an error the client does not retry: its credential no longer works.
        if (stream.revoke.signal.aborted && !signal.aborted) throw new AppError('unauthenticated', 'This session or token was revoked: sign in again.');
        if (!signal.aborted) throw error;
      } finally {
        streams.delete(stream);
        if (streams.size === 0) open.delete(userId);
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
