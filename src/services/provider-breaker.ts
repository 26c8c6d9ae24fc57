import type { Orm } from '../db/orm.ts';
import { firstRow, run, sql } from '../db/sql.ts';
import { BREAKER_DEFAULTS, type BreakerState, openPeriodMs, opensOnFailure } from '../domain/circuit-breaker.ts';
import { AppError, isAppError } from '../domain/problems.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { counter } from '../platform/metrics.ts';

/**
 * One circuit breaker per provider (`model:<host>`), shared by every API process and worker
 * through the `provider_breakers` row (rules: src/domain/circuit-breaker.ts). While the provider is
 * down, a thousand waiting cards do not each call it: one probe does, and every other call fails
 * at once with `service_unavailable` and `retryAt`, the time to come back (the Retry-After of a
 * synchronous request; the earliest next attempt of background work). Each process reads the row
 * at most once a second while calls go; a closed breaker with no failures costs no write.
 * Should the database be unreachable, calls go: the breaker only saves the provider load.
 */
export interface ProviderBreaker {
  /** Resolves when a call may go now (true: it is the probe); throws `service_unavailable` (with `retryAt`) when not. */
  admit(): Promise<boolean>;
  /** Throws as `admit` does while the breaker is open or another caller probes; never takes the probe. */
  refuseWhileOpen(): Promise<void>;
  /** The probe `admit` gave was not made (the work ended before its call): the next caller may probe at once. */
  probeUnused(): Promise<void>;
  /**
   * For background work: resolves once a call may go (as `admit`), waiting meanwhile while the
   * breaker is open or another caller probes, up to `maxWaitMs`, after which it throws the last
   * refusal. It looks again about once a second, so waiting work goes on within a second or two of
   * a probe's success instead of sleeping out a backoff. `onWait` is told once, when the wait starts.
   */
  admitWaiting(wait: BreakerWait): Promise<boolean>;
  /** The provider answered (verdicts included). */
  succeeded(): Promise<void>;
  /** The provider could not serve the call, after its quick retries; `retryAfterMs` if it said. */
  failed(retryAfterMs?: number): Promise<void>;
}

export interface BreakerWait {
  maxWaitMs: number;
  signal?: AbortSignal | undefined;
  onWait?: (() => Promise<void>) | undefined;
}

/** How often a waiter looks at the breaker again: the shared row is read at most once a second (CACHE_MS) anyway. */
const WAIT_POLL_MS = 1_000;

const UNAVAILABLE_MESSAGE = 'The language model is unavailable right now.';

interface BreakerRow {
  state: BreakerState;
  failures: number;
  opened_count: number;
  retry_at: Date | null;
  probe_expires_at: Date | null;
  /** The database's clock when read: times are compared on it, not on this process's. */
  now: Date;
}

const CACHE_MS = 1_000;
const transitions = counter('lcs_provider_breaker_transitions_total', 'Provider circuit breaker transitions made by this process, by provider and new state', [
  'provider',
  'state',
]);
const refused = counter('lcs_provider_breaker_refusals_total', 'Provider calls refused by an open circuit breaker, by provider', ['provider']);

const ROW = sql`state, failures, opened_count, retry_at, probe_expires_at, clock_timestamp() AS now`;

export function providerBreaker(
  orm: Orm,
  provider: string,
  options: { openMs?: number; threshold?: number; probeMs: number; logger?: { warn(obj: object, msg?: string): void } },
): ProviderBreaker {
  const threshold = options.threshold ?? BREAKER_DEFAULTS.threshold;
  const openMs = options.openMs ?? BREAKER_DEFAULTS.openMs;
  let cached: { row: BreakerRow | null; at: number; skewMs: number } | undefined;

  const remember = (row: BreakerRow | null | undefined) => {
    cached = { row: row ?? null, at: Date.now(), skewMs: row ? new Date(row.now).getTime() - Date.now() : 0 };
    return row ?? null;
  };
  // One read at a time: when the cached row turns a second old, every call in flight at that moment shares it.
  let reading: Promise<BreakerRow | null> | undefined;
  const read = () =>
    (reading ??= firstRow<BreakerRow>(orm.em.fork(), sql`SELECT ${ROW} FROM provider_breakers WHERE provider = ${provider}`)
      .then(remember)
      .finally(() => (reading = undefined)));
  /** The row as this process knows it: read again once a second. */
  const current = () => (cached && Date.now() - cached.at < CACHE_MS ? cached.row : read());
  const dbNow = () => Date.now() + (cached?.skewMs ?? 0);
  const refuse = (retryAtMs: number): never => {
    refused.inc({ provider });
    const retryAt = Math.max(retryAtMs, dbNow() + 1_000);
    throw new AppError(
      'service_unavailable',
      UNAVAILABLE_MESSAGE,
      { retryAt: new Date(retryAt).toISOString() },
      {
        retryAfterSeconds: Math.max(1, Math.ceil((retryAt - dbNow()) / 1000)),
      },
    );
  };
  const warnDatabase = (error: unknown) => options.logger?.warn({ provider, err: (error as Error)?.name }, 'provider breaker unreadable: the call goes');

  /** Refuses while the breaker is open or probed; true when a probe is due (the caller may take it). */
  async function probeDue(): Promise<boolean> {
    let row: BreakerRow | null;
    try {
      row = await current();
    } catch (error) {
      warnDatabase(error);
      return false;
    }
    if (!row || row.state === 'closed') return false;
    const now = dbNow();
    const retryAt = row.retry_at ? new Date(row.retry_at).getTime() : 0;
    const probeExpires = row.probe_expires_at ? new Date(row.probe_expires_at).getTime() : 0;
    if (row.state === 'open' && retryAt > now) refuse(retryAt);
    if (row.state === 'half_open' && probeExpires > now) refuse(now + openMs);
    return true;
  }

  async function admit(): Promise<boolean> {
    if (!(await probeDue())) return false;
    const now = dbNow();
    // Time for a probe: one caller wins it; the others wait for its outcome.
    let probe: BreakerRow | undefined;
    try {
      probe = await firstRow<BreakerRow>(
        orm.em.fork(),
        sql`UPDATE provider_breakers SET state = 'half_open', probe_expires_at = clock_timestamp() + (${options.probeMs} * interval '1 millisecond'),
               updated_at = clock_timestamp()
             WHERE provider = ${provider}
               AND ((state = 'open' AND retry_at <= clock_timestamp()) OR (state = 'half_open' AND probe_expires_at <= clock_timestamp()))
             RETURNING ${ROW}`,
      );
    } catch (error) {
      warnDatabase(error);
      return false;
    }
    if (probe) {
      remember(probe);
      transitions.inc({ provider, state: 'half_open' });
      return true;
    }
    cached = undefined; // someone else probes: read again next time
    return refuse(now + openMs);
  }

  return {
    admit,

    async refuseWhileOpen() {
      await probeDue();
    },

    async probeUnused() {
      cached = undefined;
      await run(
        orm.em.fork(),
        sql`UPDATE provider_breakers SET state = 'open', retry_at = clock_timestamp(), probe_expires_at = NULL, updated_at = clock_timestamp()
             WHERE provider = ${provider} AND state = 'half_open'`,
      ).catch(warnDatabase);
    },

    async admitWaiting({ maxWaitMs, signal, onWait }) {
      const deadline = Date.now() + maxWaitMs;
      let waiting = false;
      for (;;) {
        try {
          return await admit();
        } catch (error) {
          if (!isAppError(error) || error.code !== 'service_unavailable') throw error;
          const retryAt = Date.parse(String(error.extensions.retryAt));
          const pauseMs = Math.max(50, Math.min(WAIT_POLL_MS * (0.75 + Math.random() / 2), (Number.isFinite(retryAt) ? retryAt : Infinity) - Date.now()));
          if (Date.now() + pauseMs > deadline) throw error;
          if (!waiting) {
            waiting = true;
            await onWait?.();
          }
          await sleep(pauseMs, undefined, signal ? { signal } : {}).catch(() => {
            throw signal?.reason;
          });
        }
      }
    },

    async succeeded() {
      try {
        // No row (the provider never failed) reads as closed with no failures: nothing to reset. Read first, once a
        // second and shared: an UPDATE that found nothing to reset, then a read, for every answer of a busy second
        // cost about one statement a card (bench cards, capture path: 345 such updates and 601 reads for 1,000 cards).
        const row = await current();
        if (row === null || (row.state === 'closed' && row.failures === 0)) return;
        const closed = await firstRow<BreakerRow>(
          orm.em.fork(),
          sql`UPDATE provider_breakers
             SET state = 'closed', failures = 0, opened_count = 0, retry_at = NULL, probe_expires_at = NULL, updated_at = clock_timestamp()
             WHERE provider = ${provider} AND (state <> 'closed' OR failures > 0) RETURNING ${ROW}`,
        );
        if (closed) {
          transitions.inc({ provider, state: 'closed' });
          remember(closed);
        } else await read();
      } catch (error) {
        warnDatabase(error);
      }
    },

    async failed(retryAfterMs) {
      try {
        const counted = await firstRow<BreakerRow>(
          orm.em.fork(),
          sql`INSERT INTO provider_breakers AS b (provider, failures) VALUES (${provider}, 1)
             ON CONFLICT (provider) DO UPDATE SET failures = b.failures + 1, updated_at = clock_timestamp() RETURNING ${ROW}`,
        );
        remember(counted);
        if (!counted || !opensOnFailure(counted.state, counted.failures, threshold)) return;
        const periodMs = openPeriodMs({ openMs, random: Math.random(), retryAfterMs });
        // Only one of several failures seen together opens it: the one whose view is still current.
        const opened = await firstRow<BreakerRow>(
          orm.em.fork(),
          sql`UPDATE provider_breakers SET state = 'open', failures = 0, opened_count = opened_count + 1, probe_expires_at = NULL,
               retry_at = clock_timestamp() + (${periodMs} * interval '1 millisecond'), updated_at = clock_timestamp()
             WHERE provider = ${provider} AND state = ${counted.state} AND opened_count = ${counted.opened_count} RETURNING ${ROW}`,
        );
        if (opened) {
          remember(opened);
          transitions.inc({ provider, state: 'open' });
          options.logger?.warn({ provider, openForMs: periodMs, openedInARow: opened.opened_count }, 'provider circuit breaker opened');
        }
      } catch (error) {
        warnDatabase(error);
      }
    },
  };
}
