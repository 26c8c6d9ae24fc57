import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Orm } from '../db/orm.ts';
import { firstRow, run, sql } from '../db/sql.ts';
import { AppError } from '../domain/problems.ts';
import { counter, histogram } from '../platform/metrics.ts';
import { LEASE } from './leases.ts';

/**
 * MODEL_MAX_CONCURRENCY: the model calls in flight across every API and worker process, bounded
 * by slots in PostgreSQL (`model_call_slots`, a row per slot of the model endpoint). A slot is held under a lease its
 * holder renews while the call goes; a process that dies stops renewing, and its slot is free
 * once the lease lapses (LEASE.durationMs). Taking one is a single UPDATE that skips the rows
 * other takers have locked, so two processes never take the same slot.
 *
 * A process's waiters queue in the order they came, and only the first asks PostgreSQL, after a
 * pause that grows from 20 ms to half a second, and at once when a slot of its own process is given
 * back: a card captured first is prepared first, not after whichever waiter polled last.
 * Holding is re-entrant within one async context: background work takes its slot before it holds
 * credits (src/features/credits/paid-call.ts), and the model calls inside it go
 * in that slot rather than waiting for a second one.
 */
export interface ModelSlots {
  readonly max: number;
  /**
   * Runs `work` in a slot, taken now or after waiting; at once when this async context holds one
   * already. Gives up with `service_unavailable` (and a Retry-After) after `maxWaitMs` (undefined:
   * no bound), and with the signal's reason when `signal` aborts.
   */
  run<T>(work: () => Promise<T>, wait: SlotWait): Promise<T>;
}

export interface SlotWait {
  maxWaitMs?: number;
  signal?: AbortSignal | undefined;
}

/** A waiter's first pause; each pause after is longer by `growth`, up to `max`, so that hundreds queued behind a cap of 1 cost PostgreSQL little. */
const POLL_MS = { first: 20, growth: 1.5, max: 500 };

const waits = histogram(
  'lcs_model_slot_wait_seconds',
  'How long model calls waited for a slot under MODEL_MAX_CONCURRENCY (this process)',
  [],
  [0.01, 0.1, 0.5, 1, 5, 30, 120],
);
const busy = counter('lcs_model_slot_busy_total', 'Model calls given up because every slot stayed busy for their wait (this process)');

/**
 * Every slot stayed busy for the whole wait: a 503 with Retry-After for a request; for background
 * work, whose attempt ran out of time to wait, another attempt soon (src/temporal/activity-failure.ts),
 * not a provider outage.
 */
export class ModelSlotsBusy extends AppError {
  constructor(max: number, retryAfterSeconds: number) {
    super('service_unavailable', `Every model slot (MODEL_MAX_CONCURRENCY=${max}) stayed busy; try again shortly.`, {}, { retryAfterSeconds });
  }
}

interface Waiter {
  /** Ends the waiter's pause at once. */
  wake: () => void;
}

interface Held {
  released: boolean;
}

/** `endpoint`: the model endpoint's base URL, whose calls the slots bound. */
export function modelSlots(orm: Orm, endpoint: string, max: number, options: { leaseMs?: number } = {}): ModelSlots {
  const leaseMs = options.leaseMs ?? LEASE.durationMs;
  const holding = new AsyncLocalStorage<Held>();
  /** This process's waiters, in the order they came. */
  const queue: Waiter[] = [];
  let seeded: Promise<unknown> | undefined;

  const seed = () => {
    seeded ??= run(
      orm.em.fork(),
      sql`INSERT INTO model_call_slots (endpoint, slot) SELECT ${endpoint}, generate_series(0, ${max - 1}::int) ON CONFLICT DO NOTHING`,
    ).catch((error: unknown) => {
      seeded = undefined;
      throw error;
    });
    return seeded;
  };
  const leaseSql = sql`clock_timestamp() + (${leaseMs} * interval '1 millisecond')`;

  async function take(holder: string): Promise<number | null> {
    await seed();
    const row = await firstRow<{ slot: number }>(
      orm.em.fork(),
      sql`UPDATE model_call_slots SET holder = ${holder}, lease_expires_at = ${leaseSql}
           WHERE endpoint = ${endpoint}
             AND slot = (SELECT slot FROM model_call_slots WHERE endpoint = ${endpoint} AND slot < ${max} AND lease_expires_at <= clock_timestamp()
                         ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING slot`,
    );
    return row?.slot ?? null;
  }

  /** Resolves after a short jittered pause, when `waiter` is woken (a slot of this process came back, or its turn came), or when `signal` aborts. */
  function pause(waiter: Waiter, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiter.wake = () => {};
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      waiter.wake = done;
    });
  }

  async function acquire(holder: string, wait: SlotWait): Promise<number> {
    const started = Date.now();
    const deadline = wait.maxWaitMs === undefined ? Infinity : started + wait.maxWaitMs;
    const me: Waiter = { wake: () => {} };
    queue.push(me);
    try {
      let pauseMs: number = POLL_MS.first;
      for (;;) {
        wait.signal?.throwIfAborted();
        // Only the first of this process's waiters asks for a slot: its work goes first come, first served.
        const slot = queue[0] === me ? await take(holder) : null;
        if (slot !== null) {
          waits.observe((Date.now() - started) / 1000);
          return slot;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          busy.inc();
          throw new ModelSlotsBusy(max, Math.max(1, Math.ceil((wait.maxWaitMs ?? 0) / 1000)));
        }
        await pause(me, Math.min(left, pauseMs * (0.5 + Math.random())), wait.signal);
        pauseMs = Math.min(POLL_MS.max, pauseMs * POLL_MS.growth);
      }
    } finally {
      const at = queue.indexOf(me);
      queue.splice(at, 1);
      // The next in line asks at once: for another free slot, or to wait at the head.
      if (at === 0) queue[0]?.wake();
    }
  }

  function keepLease(slot: number, holder: string): () => void {
    const timer = setInterval(() => {
      run(
        orm.em.fork(),
        sql`UPDATE model_call_slots SET lease_expires_at = ${leaseSql} WHERE endpoint = ${endpoint} AND slot = ${slot} AND holder = ${holder}`,
      ).catch(() => {});
    }, leaseMs / 4);
    return () => clearInterval(timer);
  }

  async function release(slot: number, holder: string): Promise<void> {
    // Should this fail, the lease lapses by itself.
    await run(
      orm.em.fork(),
      sql`UPDATE model_call_slots SET holder = NULL, lease_expires_at = '-infinity' WHERE endpoint = ${endpoint} AND slot = ${slot} AND holder = ${holder}`,
    ).catch(() => {});
    queue[0]?.wake();
  }

  return {
    max,
    async run(work, wait) {
      const current = holding.getStore();
      if (current && !current.released) return work();
      const holder = randomUUID();
      const slot = await acquire(holder, wait);
      const stopRenewing = keepLease(slot, holder);
      const held: Held = { released: false };
      try {
        return await holding.run(held, work);
      } finally {
        held.released = true;
        stopRenewing();
        // Waited for, so that the caller's next call finds its slot free again (a waiter of this process is woken then).
        await release(slot, holder);
      }
    },
  };
}
