import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.ts';
import { createModelClient } from '../../../src/model/model-client.ts';
import { CLIENT_ATTEMPTS, countedTemporalClient } from '../../support/counted-temporal.ts';
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
  const counted = countedTemporalClient(address);
  const temporal = counted.client;
  const app = await buildApp({ config: stack.config, orm: stack.orm, temporal, model: createModelClient(stack.config.model) }, { logger: false });
  return {
    async readyz() {
      counted.reset();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      return { status: res.statusCode, body: res.json(), attempts: counted.attempts() };
    },
    async close() {
      await app.close();
      await new Promise((r) => setTimeout(r, 6_000));
      await temporal.connection.close();
    },
  };
}

// The answer's time against its 2 s deadline is the bench's (bench/scenarios/readiness.ts); here, that it answers,
// 503 naming Temporal, each time, and before the client's own retries run out.
describe('GET /readyz while Temporal is down', () => {
  it.each([
    ['refuses connections', () => '127.0.0.1:1'],
    ['accepts but never answers', () => `127.0.0.1:${(silent.address() as net.AddressInfo).port}`],
  ])(
    "answers 503 by its own deadline, before the client's retries run out, when Temporal %s (its time: the bench)",
    async (_, address) => {
      const app = await appWithTemporalAt(address());
      try {
        for (let round = 0; round < 2; round++) {
          const { status, body, attempts } = await app.readyz();
          expect(status).toBe(503);
          expect(body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Temporal') });
          expect(attempts, "/readyz waited out the Temporal client's own retries").toBeLessThan(CLIENT_ATTEMPTS);
        }
      } finally {
        await app.close();
      }
    },
    30_000,
  ); // two 2 s deadlines and a 6 s close: the default 10 s left no room on a loaded machine
});
