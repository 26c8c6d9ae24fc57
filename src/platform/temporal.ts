import { Client, Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../workflows/constants.ts';

/**
 * grpc-js waits longer and longer between reconnect attempts (from 1 s, ×1.6, up to 2 minutes):
 * after a 60 s Temporal outage the API took 8–30 s to see the server again, and every workflow
 * start meanwhile was left to the relay. A reconnect attempt is one TCP connect, so the wait is
 * capped at a second.
 */
export const RECONNECT_CHANNEL_ARGS = { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1_000 } as const;

/** One attempt at connecting fails after this long (the SDK's default is 10 s), so a start-up that waits for Temporal retries often. */
const CONNECT_TIMEOUT_MS = 3_000;

/** One connection and client per process, shared by every request. */
export async function connectTemporal(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address, channelArgs: RECONNECT_CHANNEL_ARGS, connectTimeout: CONNECT_TIMEOUT_MS });
  return new Client({ connection, namespace });
}

const INDEXED_VALUE_TYPE = { Keyword: 2, Text: 1, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 } as const;

/**
 * Registers our search attributes on the namespace when they are missing, so operators can
 * filter workflows by user and kind in the Web UI. A cluster that does not allow it (e.g. Temporal
 * Cloud, where attributes are set in the console) is told to the operator, not fatal.
 */
export async function ensureSearchAttributes(client: Client, namespace: string, warn: (msg: string) => void): Promise<void> {
  try {
    const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.entries(SEARCH_ATTRIBUTES).filter(([name]) => !(name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return;
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
    });
  } catch (error) {
    warn(`Could not register search attributes ${Object.keys(SEARCH_ATTRIBUTES).join(', ')}: ${(error as Error).message}. Register them on the namespace so workflows can be filtered by user and kind.`);
  }
}
