import { setTimeout as sleep } from 'node:timers/promises';
import type pino from 'pino';
import { exponentialBackoffMs } from '../domain/retry-policy.ts';

const BACKOFF = { initialMs: 500, factor: 2, maxMs: 5_000 };

/** A dependency that stayed away past the start-up deadline: the process says so in one line and exits non-zero. */
class StartupTimeout extends Error {}

/**
 * Calls `connect` until it succeeds. A failure `isAway` recognises (the dependency is down or
 * restarting) is retried with backoff and logged, until `deadline`; any other failure (a wrong
 * password, a bad address) is thrown at once. A process started before its database or Temporal
 * is up thus waits for them, as a supervisor expects, instead of crashing in a restart loop.
 */
export async function whenReachable<T>(
  what: string,
  connect: () => Promise<T>,
  options: { isAway: (error: unknown) => boolean; deadline: number; timeoutSeconds: number; logger: pino.Logger },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const connected = await connect();
      if (attempt > 1) options.logger.info({ attempt }, `${what} is reachable`);
      return connected;
    } catch (error) {
      if (!options.isAway(error)) throw error;
      const reason = (error as Error)?.message ?? String(error);
      const wait = exponentialBackoffMs(attempt, BACKOFF);
      if (Date.now() + wait > options.deadline) {
        throw new StartupTimeout(`${what} was not reachable within ${options.timeoutSeconds} s (STARTUP_TIMEOUT_SECONDS): ${reason}`);
      }
      options.logger.warn({ attempt, retryInMs: wait, reason }, `${what} is not reachable yet; retrying`);
      await sleep(wait);
    }
  }
}

/** Runs a process's main; a start-up timeout ends it with one line on stderr and exit code 1. */
export function exitOnStartupTimeout(error: unknown): never {
  if (error instanceof StartupTimeout) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
