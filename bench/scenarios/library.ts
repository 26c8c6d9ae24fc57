/**
 * Capture: how fast POST /api/library acknowledges, against a FLOOR route with the same guards
 * that does a single INSERT (so the ratio shows the cost of the card + scheduling + outbox
 * transaction and the workflow start), and how long 500 captures take to all become ready with
 * the fake provider answering instantly.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import type { BenchContext } from '../support.ts';

const LOAD_SECONDS = 6;
const CONNECTIONS = 16;
const READY_COUNT = 500;
const READY_TIMEOUT_MS = 180_000;

export default async function library(ctx: BenchContext): Promise<void> {
  ctx.fake.reset();
  ctx.fake.setLatency(0);

  // 1. Time to ready, on a quiet system (before the load phases leave a backlog).
  const readyUser = await ctx.createUser();
  const readySeconds = await timeToReady(ctx, readyUser.userId, readyUser.token);
  ctx.report('library', `${READY_COUNT} captures → all ready`, `${readySeconds.toFixed(2)} s (${(READY_COUNT / readySeconds).toFixed(0)} cards/s)`);

  // 2. FLOOR, then 3. capture, each with its own user and distinct texts per request.
  const floor = await distinctTextLoad(ctx, '/bench/floor', (await ctx.createUser()).token);
  const captureUser = await ctx.createUser();
  const capture = await distinctTextLoad(ctx, '/api/library', captureUser.token);
  // Let the capture phase's preparations finish, so the next scenario measures a quiet system.
  await waitForReady(ctx, captureUser.userId, capture.requests.total, performance.now());
  for (const [name, result] of [['floor (1 INSERT)', floor], ['capture', capture]] as const) {
    ctx.report('library', `${name} acks/s`, result.requests.average.toFixed(0));
    ctx.report('library', `${name} latency p50 / p99`, `${result.latency.p50} ms / ${result.latency.p99} ms`);
    const bad = result.non2xx + result.errors + result.timeouts;
    if (bad > 0) ctx.report('library', `${name} failed requests`, String(bad));
  }
  ctx.report('library', 'capture / floor throughput', `${(capture.requests.average / floor.requests.average).toFixed(2)}×`);
  ctx.report('library', 'capture / floor p50 latency', `${(capture.latency.p50 / Math.max(floor.latency.p50, 0.001)).toFixed(2)}×`);
}

/** Autocannon for LOAD_SECONDS; every request carries a new text (a new card for /api/library). */
async function distinctTextLoad(ctx: BenchContext, path: string, token: string): Promise<autocannon.Result> {
  const run = randomUUID().slice(0, 8);
  let counter = 0;
  const result = await ctx.load({
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    requests: [{
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ text: `bench expression ${run} number ${++counter}` }) }),
    }],
  });
  console.log(`${path}: ${result.requests.total} requests, ${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
  return result;
}

/** Sends READY_COUNT captures (32 at a time) and waits until every card is ready. */
async function timeToReady(ctx: BenchContext, userId: string, token: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  const send = async () => {
    while (next < READY_COUNT) {
      const n = next++;
      const res = await fetch(`${ctx.baseUrl}/api/library`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `ready check expression ${n}` }),
      });
      if (res.status !== 202) throw new Error(`capture answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, send));
  return waitForReady(ctx, userId, READY_COUNT, started);
}

/** Polls until `count` of the user's cards are ready; seconds since `started`. */
async function waitForReady(ctx: BenchContext, userId: string, count: number, started: number): Promise<number> {
  const em = ctx.orm.em.fork();
  for (;;) {
    const [row] = await em.execute<{ ready: string; failed: string }[]>(
      `SELECT count(*) FILTER (WHERE enrichment_status = 'ready') AS ready, count(*) FILTER (WHERE enrichment_status = 'failed') AS failed FROM cards WHERE user_id = ?`,
      [userId],
    );
    if (Number(row!.failed) > 0) throw new Error(`${row!.failed} preparations failed`);
    if (Number(row!.ready) >= count) return (performance.now() - started) / 1000;
    if (performance.now() - started > READY_TIMEOUT_MS) throw new Error(`only ${row!.ready}/${count} ready after ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
}
