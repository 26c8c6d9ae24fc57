import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.ts';
import { createModelClient } from '../../../src/model/model-client.ts';
import { startStack, type Stack } from '../../support/stack.ts';

let stack: Stack;
let silent: net.Server;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  // Accepts connections and never answers: a Temporal frontend that hangs.
  silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  silent?.close();
  await stack?.close();
});

/**
 * An app whose Temporal client points at `address`. Closing it waits out the client's retry
 * interceptor, which fires one last (failing) attempt after a deadline has passed and must not
 * find its channel closed.
 */
async function appWithTemporalAt(address: string) {
  const temporal = new Client({ connection: Connection.lazy({ address }) });
  const app = await buildApp({ config: stack.config, orm: stack.orm, temporal, model: createModelClient(stack.config.model) }, { logger: false });
  return {
    async readyz() {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      return { status: res.statusCode, body: res.json(), ms: performance.now() - started };
    },
    async close() {
      await app.close();
      await new Promise((r) => setTimeout(r, 6_000));
      await temporal.connection.close();
    },
  };
}

describe('GET /readyz while Temporal is down', () => {
  it.each([
    ['refuses connections', () => '127.0.0.1:1'],
    ['accepts but never answers', () => `127.0.0.1:${(silent.address() as net.AddressInfo).port}`],
  ])(
    'answers 503 within its 2 s deadline when Temporal %s',
    async (_, address) => {
      const app = await appWithTemporalAt(address());
      try {
        for (let round = 0; round < 2; round++) {
          const { status, body, ms } = await app.readyz();
          expect(status).toBe(503);
          expect(body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Temporal') });
          expect(ms).toBeLessThan(2_150);
        }
      } finally {
        await app.close();
      }
    },
    30_000,
  ); // two 2 s deadlines and a 6 s close: the default 10 s left no room on a loaded machine
});
