import pg from 'pg';
import type { Logger } from 'pino';

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_AFTER_MS = 1_000;

/**
 * Calls `onNotify` with the payload of every NOTIFY on `channel`, on a connection of its own (a
 * pooled one cannot keep listening). A lost connection is opened again after a pause; notifications
 * sent meanwhile are lost, so each (re)connection also calls `onNotify(null)`: "anything may have
 * been missed", for the owner to look again. Returns the stop function.
 */
export function listen(databaseUrl: string, channel: string, onNotify: (payload: string | null) => void, logger?: Pick<Logger, 'warn'>): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    const reconnect = () => {
      if (stopped || client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      retry = setTimeout(() => void connect(), RECONNECT_AFTER_MS);
    };
    next.on('notification', (message) => onNotify(message.payload ?? ''));
    next.on('error', (error) => {
      logger?.warn({ channel, err: error.message }, 'notification listener lost its connection');
      reconnect();
    });
    next.on('end', reconnect);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      onNotify(null); // whatever was sent while this connection was away
    } catch (error) {
      logger?.warn({ channel, err: (error as Error).message }, 'notification listener could not connect');
      reconnect();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
