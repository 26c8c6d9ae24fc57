import { Client, Connection } from '@temporalio/client';

/**
 * grpc-js waits longer and longer between reconnect attempts (from 1 s, ×1.6, up to 2 minutes):
 * after a Temporal outage the API took many seconds to see the server again, and every workflow
 * start meanwhile was left to the relay (docs/performance.md, "Temporal reconnects"). A reconnect
 * attempt is one TCP connect, so the wait is capped at a second.
 */
const RECONNECT_CHANNEL_ARGS = { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1_000 } as const;

/** One attempt at connecting fails after this long (the SDK's default is 10 s), so a start-up that waits for Temporal retries often. */
const CONNECT_TIMEOUT_MS = 3_000;

/** One connection and client per process, shared by every request. */
export async function connectTemporal(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address, channelArgs: RECONNECT_CHANNEL_ARGS, connectTimeout: CONNECT_TIMEOUT_MS });
  return new Client({ connection, namespace });
}
