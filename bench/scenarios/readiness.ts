/**
 * `/readyz` while Temporal is down: the slowest of 5 answers of the production app (in this process,
 * through `inject`) whose Temporal client points at an address that refuses connections, and at one that
 * accepts them and never answers. A load balancer's probe must be answered within the route's 2 s deadline
 * even then. Floor: the same app's `/readyz` with the bench's live Temporal, in the same run. The behaviour
 * (503 naming Temporal, every time, before the client's own retries run out) is
 * test/integration/platform/readiness.test.ts's.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { buildApp } from '../../src/http/app.ts';
import { createModelClient } from '../../src/model/model-client.ts';
import type { BenchContext } from '../support.ts';

/** The route's deadline (2 s) and the time to answer once it has passed. */
const GOAL_MAX_MS = 2_150;
const ROUNDS = 5;

export default async function readinessScenario(ctx: BenchContext): Promise<void> {
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const floor = await slowestReadyz(ctx, ctx.temporal, 200);
    for (const [label, address] of [
      ['refuses connections', '127.0.0.1:1'],
      ['accepts but never answers', `127.0.0.1:${(silent.address() as net.AddressInfo).port}`],
    ] as const) {
      const temporal = new Client({ connection: Connection.lazy({ address }) });
      try {
        const ms = await slowestReadyz(ctx, temporal, 503);
        ctx.report('readiness', `/readyz slowest of ${ROUNDS} while Temporal ${label}`, `${ms} ms`, {
          floor: `${floor} ms`,
          goal: `≤ ${GOAL_MAX_MS} ms`,
          met: ms <= GOAL_MAX_MS,
        });
      } finally {
        // The client's retry interceptor fires one last attempt after a deadline, which must not find its channel closed.
        await sleep(6_000);
        await temporal.connection.close();
      }
    }
  } finally {
    silent.close();
  }
}

async function slowestReadyz(ctx: BenchContext, temporal: Client, status: number): Promise<number> {
  const app = await buildApp({ config: ctx.config, orm: ctx.orm, temporal, model: createModelClient(ctx.config.model) }, { logger: false });
  try {
    let slowest = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      slowest = Math.max(slowest, performance.now() - started);
      if (res.statusCode !== status) throw new Error(`/readyz → ${res.statusCode}, expected ${status}`);
    }
    return Math.round(slowest);
  } finally {
    await app.close();
  }
}
