import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/** The Temporal client's retry attempts per call (its default): over 20 s of backoff against an address that refuses. */
export const CLIENT_ATTEMPTS = 10;

/**
 * A Temporal client at `address` whose own retries are counted: `attempts()` is the highest attempt any call
 * reached since `reset()`. A caller that gives up by its own deadline stops before CLIENT_ATTEMPTS; one that
 * waits the retries out reaches it. Counting, rather than timing, tells the two apart on a loaded machine.
 */
export function countedTemporalClient(address: string): { client: Client; attempts(): number; reset(): void } {
  const retry = defaultGrpcRetryOptions({ maxAttempts: CLIENT_ATTEMPTS });
  let attempts = 0;
  const counted = makeGrpcRetryInterceptor({
    ...retry,
    retryableDecider: (attempt, status) => {
      attempts = Math.max(attempts, attempt);
      return retry.retryableDecider(attempt, status);
    },
  });
  return {
    client: new Client({ connection: Connection.lazy({ address, interceptors: [counted] }) }),
    attempts: () => attempts,
    reset: () => (attempts = 0),
  };
}
