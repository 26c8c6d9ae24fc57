/**
 * Anki packages (issue 33), against the idle API of the same run:
 *
 * 1. The API's peak RSS while it previews a 25 MB .apkg (17,500 notes with a long sentence each,
 *    stored uncompressed: the reader inflates nothing and reads the whole collection), against its idle RSS.
 * 2. A 10,000-note .apkg with 100,000 reviews (ten a card), imported with its history: the time to
 *    preview it, the time until every card is saved with the schedule its reviews give, and the
 *    API's and the worker's CPU per card over that import. The model provider answers at once, so
 *    the preparations that follow are the imports bench's figure, not this one's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { legacyCollection } from '../../test/support/anki-collection.ts';
import { writeZip } from '../../test/support/zip-writer.ts';
import type { BenchContext } from '../support.ts';
import { duringRequest } from './imports.ts';

const DAY = 86_400_000;

export default async function ankiImports(ctx: BenchContext): Promise<void> {
  const user = await ctx.createUser();
  const send = (path: 'preview' | 'file', body: Buffer, query: string) =>
    fetch(`${ctx.baseUrl}/api/library/imports/${path}?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/zip', 'idempotency-key': `bench-${path}-${Date.now()}` },
      body,
    });

  // 1. Peak RSS while reading a 25 MB package.
  const sentence = 'and the evening light fell across the harbour while the old sailors mended their nets and spoke of distant storms. '.repeat(10);
  const big = writeZip([
    {
      name: 'collection.anki2',
      store: true,
      data: legacyCollection(Array.from({ length: 17_500 }, (_, i) => ({ deck: 'Words' as const, fields: [`expression ${i}`, 'back', sentence] }))),
    },
  ]);
  await sleep(1_000);
  const idleRss = ctx.rss().api;
  const { peak, ms, body } = await duringRequest(ctx, async () => {
    const res = await send('preview', big, 'format=apkg');
    const answer = (await res.json()) as { expressions?: number; reason?: string };
    return `${res.status} ${answer.expressions ?? answer.reason}`;
  });
  console.log(
    `preview of a ${(big.length / 1e6).toFixed(1)} MB .apkg: ${body}; API RSS idle ${idleRss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${ms.toFixed(0)} ms`,
  );
  ctx.report(
    'anki-imports',
    `API RSS, preview of a ${(big.length / 1e6).toFixed(0)} MB .apkg`,
    `${peak.toFixed(0)} MB peak (+${(peak - idleRss).toFixed(0)} MB, ${ms.toFixed(0)} ms)`,
    {
      floor: `${idleRss.toFixed(0)} MB idle`,
    },
  );

  // 2. 10,000 notes, 100,000 reviews, with the history.
  const start = Date.UTC(2025, 0, 1);
  const notes = Array.from({ length: 10_000 }, (_, i) => ({
    deck: 'Words' as const,
    fields: [`bench phrase ${i}`, 'back', ''] as [string, string, string],
    reviews: Array.from({ length: 10 }, (_, r) => [start + i * 1_000 + r * 3 * DAY, r === 2 ? 1 : 3] as [number, number]),
  }));
  const apkg = writeZip([{ name: 'collection.anki2', data: legacyCollection(notes) }]);
  let started = performance.now();
  const preview = await send('preview', apkg, 'format=apkg&history=true');
  const previewed = (await preview.json()) as { expressions: number; anki: { reviews: number } };
  const previewMs = performance.now() - started;
  console.log(`preview of 10,000 notes with ${previewed.anki?.reviews} reviews: ${preview.status} in ${previewMs.toFixed(0)} ms`);
  ctx.report('anki-imports', 'preview, 10,000 notes with 100,000 reviews', `${previewMs.toFixed(0)} ms (${previewed.expressions} expressions)`);

  const cpuBefore = ctx.cpu();
  started = performance.now();
  const created = (await (await send('file', apkg, 'format=apkg&history=true&fileName=bench.apkg')).json()) as { import: { importId: string } };
  let view: { state: string; counts: { saved: number }; history: { cards: number; reviews: number } | null };
  for (;;) {
    const res = await fetch(`${ctx.baseUrl}/api/library/imports/${created.import.importId}`, { headers: { authorization: `Bearer ${user.token}` } });
    view = ((await res.json()) as { import: typeof view }).import;
    if ((view.history?.cards ?? 0) >= 10_000 || ['completed', 'failed', 'cancelled'].includes(view.state)) break;
    await sleep(200);
  }
  const savedMs = performance.now() - started;
  const cpuAfter = ctx.cpu();
  const spent = (part: string) => (cpuAfter[part]! - cpuBefore[part]!) * 1000;
  const cpuMs = spent('api') + spent('worker');
  console.log(
    `10,000 cards saved with their schedules (${JSON.stringify(view.history)}, ${view.state}) in ${savedMs.toFixed(0)} ms; ` +
      `API + worker CPU ${cpuMs.toFixed(0)} ms, PostgreSQL ${spent('postgres').toFixed(0)} ms`,
  );
  ctx.report(
    'anki-imports',
    'file to all 10,000 cards saved with their schedules',
    `${(savedMs / 1000).toFixed(1)} s (${view.history?.reviews ?? 0} reviews kept)`,
  );
  ctx.report(
    'anki-imports',
    'CPU per card, to saved: API + worker, PostgreSQL',
    `${(cpuMs / 10_000).toFixed(2)} ms, ${(spent('postgres') / 10_000).toFixed(2)} ms`,
  );
}
