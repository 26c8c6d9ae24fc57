/**
 * Import files made to stall the API (issue 33), against the idle API of the same run:
 *
 * 1. The API's peak RSS (/proc every 5 ms, and VmHWM) while it previews a 25 MB text file and a
 *    20 MB Kindle vocab.db, against its idle RSS just before (first, before other reads grow it).
 * 2. `/healthz`, one request after another, p50/p99: idle, then while each hostile file of
 *    test/support/hostile-import-files.ts is previewed (POST /api/library/imports/preview) by a
 *    learner; beside each, what the preview answered and how long it took. Before issue 33 each
 *    held the API's event loop for 5 s to minutes; now every file is read in a reader thread.
 *    A reader thread's heap is the API process's memory: its limit (IMPORT_READ_MEMORY_MB) bounds
 *    what a read adds to the API's RSS.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { hostileImportFiles, ordinaryLines } from '../../test/support/hostile-import-files.ts';
import type { BenchContext } from '../support.ts';
import { buildVocabDb, duringRequest } from './imports.ts';

const IDLE_SAMPLES = 300;
const GOAL_P99_MS = 100;

export default async function hostileImports(ctx: BenchContext): Promise<void> {
  // 1. Peak RSS while reading the largest files, first: on a quiet API, before other reads grew it.
  const user = await ctx.createUser();
  for (const file of [
    { name: '25 MB text file', body: ordinaryLines(), type: 'text/plain', query: 'format=lines' },
    { name: '20 MB Kindle vocab.db', body: buildVocabDb('hostile'), type: 'application/vnd.sqlite3', query: 'format=kindle' },
  ]) {
    await sleep(1_000);
    const idleRss = ctx.rss().api;
    const { peak, ms } = await duringRequest(ctx, async () => {
      const res = await fetch(`${ctx.baseUrl}/api/library/imports/preview?${file.query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': file.type },
        body: file.body,
      });
      return res.text();
    });
    console.log(`preview of the ${file.name}: API RSS idle ${idleRss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${ms.toFixed(0)} ms`);
    ctx.report(
      'hostile-imports',
      `API RSS, preview of a ${file.name}`,
      `${peak.toFixed(0)} MB peak (+${(peak - idleRss).toFixed(0)} MB, ${ms.toFixed(0)} ms)`,
      {
        floor: `${idleRss.toFixed(0)} MB idle`,
      },
    );
  }

  // 2. /healthz, idle and while each hostile file is read.
  const files = hostileImportFiles();
  const users = await Promise.all(files.map(() => ctx.createUser()));
  await sleep(2_000); // sign-ups' password hashing settles

  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await healthz(ctx));
  const idleFigures = describe(idle);
  console.log(`/healthz idle: ${idleFigures}`);
  ctx.report('hostile-imports', '/healthz idle', idleFigures);

  for (const [i, file] of files.entries()) {
    let done = false;
    const started = performance.now();
    const preview = fetch(`${ctx.baseUrl}/api/library/imports/preview?${file.query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${users[i]!.token}`, 'content-type': file.type },
      body: file.body,
    })
      .then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string; reason?: string; expressions?: number } }))
      .finally(() => (done = true));
    const during: number[] = [];
    while (!done) during.push(await healthz(ctx));
    const answer = await preview;
    const ms = performance.now() - started;
    const said = answer.status === 200 ? `${answer.body.expressions} expressions` : `${answer.status} ${answer.body.reason ?? answer.body.code}`;
    const figures = describe(during);
    console.log(`/healthz while reading the ${file.name} (${(file.body.length / 1e6).toFixed(1)} MB; ${said} in ${ms.toFixed(0)} ms): ${figures}`);
    ctx.report('hostile-imports', `/healthz while reading the ${file.name}`, `${figures} (${said}, ${ms.toFixed(0)} ms)`, {
      floor: `idle ${idleFigures}`,
      goal: `p99 ≤ ${GOAL_P99_MS} ms`,
      met: during.length > 0 && percentile(during, 0.99) <= GOAL_P99_MS,
    });
  }
}

async function healthz(ctx: BenchContext): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${ctx.baseUrl}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

const describe = (values: number[]) =>
  values.length === 0
    ? 'no answer during the read'
    : `p50 ${percentile(values, 0.5).toFixed(1)} ms, p99 ${percentile(values, 0.99).toFixed(1)} ms (${values.length})`;
