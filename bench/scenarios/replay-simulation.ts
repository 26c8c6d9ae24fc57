// Replay's mapping (masks + evidence → rating) against today's, on the deterministic synthetic
// learner of bench/replay-simulator.ts: 200 cards, 10 new a day, 90 days; then translation prompts
// against the learner's own context cloze (an assumed cue effect, stated in the simulator's header).
// Needs nothing of the stack; `tsx bench/scenarios/replay-simulation.ts` prints the same tables on its own.
import { pathToFileURL } from 'node:url';
import type { BenchContext } from '../support.ts';
import { CONTEXT_PROMPT, SERVICE_MAPPING, type SimulationResult, TODAYS_MAPPING, TRANSLATION_PROMPT, simulate } from '../replay-simulator.ts';

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

/**
 * The service's mapping at the default retention, every item prompted by its translation or by its
 * context cloze: the assumed cue (×1.5 stability at review, 3 s more reading) and, since it is an
 * assumption, a weaker and a stronger one; with default weights and with the learner's own.
 */
export async function promptTable(): Promise<SimulationResult[]> {
  const rows: SimulationResult[] = [];
  for (const personalWeights of [false, true]) {
    rows.push(await simulate(SERVICE_MAPPING, { personalWeights, prompt: TRANSLATION_PROMPT }));
    const cues = personalWeights ? [CONTEXT_PROMPT.cueStability] : [1.25, CONTEXT_PROMPT.cueStability, 2];
    for (const cueStability of cues) rows.push(await simulate(SERVICE_MAPPING, { personalWeights, prompt: { ...CONTEXT_PROMPT, cueStability } }));
  }
  return rows;
}

const promptName = (r: SimulationResult) =>
  r.prompt.kind === 'translation' ? 'translation prompt' : `context cloze (cue ×${r.prompt.cueStability}, +${r.prompt.readingMs / 1000} s)`;

const rowName = (r: SimulationResult) =>
  `${r.mapping}, ${promptName(r)}, retention ${r.desiredRetention}, ` +
  `${r.personalWeightsFrom === null ? 'default weights' : `own weights from day ${r.personalWeightsFrom}`}`;

export function describeRow(r: SimulationResult): string {
  const { again, hard, good, easy } = r.ratings;
  return (
    `${r.reviewsPerCard.toFixed(2)} reviews/card, ${r.reviewsPerDay.toFixed(1)} reviews/day, ${r.minutesPerDay.toFixed(1)} min/day, recall at review ` +
    `${(100 * r.recallAtReview).toFixed(1)} %, ` +
    `retained at day 90 ${r.expectedRetained.toFixed(1)} expected / ${r.retained90} at ≥ 90 %; again/hard/good/easy ${again}/${hard}/${good}/${easy}`
  );
}

export default async function replaySimulation(ctx: BenchContext): Promise<void> {
  for (const row of await simulationTable()) ctx.report('replay-simulation', rowName(row), describeRow(row));
  for (const row of await promptTable()) ctx.report('replay-simulation', rowName(row), describeRow(row));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await simulationTable()) console.log(`${rowName(row)}: ${describeRow(row)}`);
  console.log('\nprompts:');
  for (const row of await promptTable()) console.log(`${rowName(row)}: ${describeRow(row)}`);
}
