// Replay's mapping (masks + evidence → rating) against today's, on the deterministic synthetic
// learner of bench/replay-simulator.ts: 200 cards, 10 new a day, 90 days. Needs nothing of the
// stack; `tsx bench/scenarios/replay-simulation.ts` prints the same table on its own.
import { pathToFileURL } from 'node:url';
import type { BenchContext } from '../support.ts';
import { SERVICE_MAPPING, type SimulationResult, TODAYS_MAPPING, simulate } from '../replay-simulator.ts';

/**
 * Today's mapping at the default retention, then the new one at the default and at lower desired
 * retentions, with FSRS's default weights and with the learner's own (the weekly optimiser).
 */
export async function simulationTable(): Promise<SimulationResult[]> {
  const rows = [await simulate(TODAYS_MAPPING)];
  for (const personalWeights of [false, true]) {
    for (const desiredRetention of [0.9, 0.85, 0.82, 0.8]) rows.push(await simulate(SERVICE_MAPPING, { desiredRetention, personalWeights }));
  }
  return rows;
}

const rowName = (r: SimulationResult) =>
  `${r.mapping}, retention ${r.desiredRetention}, ${r.personalWeightsFrom === null ? 'default weights' : `own weights from day ${r.personalWeightsFrom}`}`;

export function describeRow(r: SimulationResult): string {
  const { again, hard, good, easy } = r.ratings;
  return (
    `${r.reviewsPerCard.toFixed(2)} reviews/card, recall at review ${(100 * r.recallAtReview).toFixed(1)} %, ` +
    `retained at day 90 ${r.expectedRetained.toFixed(1)} expected / ${r.retained90} at ≥ 90 %; again/hard/good/easy ${again}/${hard}/${good}/${easy}`
  );
}

export default async function replaySimulation(ctx: BenchContext): Promise<void> {
  for (const row of await simulationTable()) ctx.report('replay-simulation', rowName(row), describeRow(row));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await simulationTable()) console.log(`${rowName(row)}: ${describeRow(row)}`);
}
