import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { exponentialBackoffMs } from '../domain/retry-policy.ts';

/** A process `npm start` runs for the service: the embedded PostgreSQL, the Temporal dev server. */
export interface Dependency {
  pid: number;
  /** Settles when the process has exited, for whatever reason. */
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

export interface SupervisionPolicy {
  /** The wait before the first restart; doubled per failure in a row, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A restart that fails, or a process that dies sooner than `stableAfterMs` after one, is a failure. */
  stableAfterMs: number;
  /** After this many failures in a row the dependency is given up: the whole process exits non-zero. */
  maxFailures: number;
}

const SUPERVISION: SupervisionPolicy = { initialDelayMs: 500, maxDelayMs: 10_000, stableAfterMs: 30_000, maxFailures: 5 };

export interface Supervised<T extends Dependency> {
  current(): T;
  /**
   * The host is shutting down: an exit from now on is expected and not restarted. A terminal's
   * Ctrl-C reaches the dependency too (same process group), before the host gets to stop it.
   */
  release(): void;
  /** Stops the dependency for good (no restart). */
  stop(): Promise<void>;
}

/**
 * Keeps a dependency running. When its process exits without being asked to, that is said loudly
 * (an error log line) and it is started again with backoff; clients reconnect to it by themselves
 * (same address). When it cannot be kept running (`maxFailures` failures in a row), `giveUp` is
 * called so the whole process can exit non-zero and leave the restart to its own supervisor.
 */
export function supervise<T extends Dependency>(options: {
  name: string;
  first: T;
  restart: () => Promise<T>;
  logger: Pick<Logger, 'error' | 'warn'>;
  giveUp: (error: unknown) => void;
  policy?: SupervisionPolicy;
}): Supervised<T> {
  const policy = options.policy ?? SUPERVISION;
  const { name, logger } = options;
  let current = options.first;
  let stopping = false;

  const watch = async () => {
    let failures = 0;
    let startedAt = Date.now();
    for (;;) {
      const how = await current.exited;
      if (stopping) return;
      failures = Date.now() - startedAt < policy.stableAfterMs ? failures + 1 : 1;
      for (;;) {
        if (failures > policy.maxFailures) {
          options.giveUp(new Error(`${name} could not be kept running (${policy.maxFailures} failed restarts in a row)`));
          return;
        }
        const delayMs = exponentialBackoffMs(failures, { initialMs: policy.initialDelayMs, factor: 2, maxMs: policy.maxDelayMs });
        logger.error(
          { dependency: name, pid: current.pid, exit: how, restartInMs: delayMs, failuresInARow: failures },
          `${name} exited unexpectedly; restarting it`,
        );
        await sleep(delayMs);
        if (stopping) return;
        try {
          current = await options.restart();
          startedAt = Date.now();
          logger.warn({ dependency: name, pid: current.pid }, `${name} restarted`);
          break;
        } catch (error) {
          logger.error({ dependency: name, err: (error as Error).message }, `${name} did not restart`);
          failures++;
        }
      }
    }
  };
  void watch();

  return {
    current: () => current,
    release() {
      stopping = true;
    },
    async stop() {
      stopping = true;
      await current.stop();
    },
  };
}
