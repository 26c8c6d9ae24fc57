// `npm run bench [scenario …]`: runs bench/scenarios/*.ts (all, in name order, or those named)
// against one BenchContext and prints a summary table. Figures are only comparable within a run.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BenchContext, printTable, startBench } from './support.ts';

const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .sort();
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`Unknown scenario(s): ${unknown.join(', ')}. Available: ${all.join(', ')}`);
  process.exit(2);
}
const selected = wanted.length > 0 ? all.filter((s) => wanted.includes(s)) : all;

console.log('Starting PostgreSQL, Temporal, the fake provider, the app and a worker …');
const ctx = await startBench();
let failed = false;
try {
  for (const name of selected) {
    console.log(`\n=== ${name}`);
    const started = performance.now();
    try {
      const scenario = (await import(`./scenarios/${name}.ts`)) as { default: (ctx: BenchContext) => Promise<void> };
      await scenario.default(ctx);
    } catch (error) {
      failed = true;
      console.error(`scenario ${name} failed:`, error);
      ctx.report(name, 'FAILED', (error as Error).message.slice(0, 80));
    }
    const rss = ctx.peakRss();
    const memory = await fetch(`${ctx.baseUrl}/bench/memory`).then((res) => res.text());
    console.log(
      `(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s; peak RSS so far: API ${rss.api} MB, worker ${rss.worker} MB; API now, MB: ${memory})`,
    );
  }
  const rss = ctx.peakRss();
  ctx.report('processes', 'API peak RSS', `${rss.api} MB`, { goal: '≤ 250 MB', met: rss.api <= 250 });
  ctx.report('processes', 'worker peak RSS', `${rss.worker} MB`);
  console.log('\nSummary');
  printTable(ctx.summary);
} finally {
  await ctx.close();
}
process.exit(failed ? 1 : 0);
