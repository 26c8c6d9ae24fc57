/**
 * How long each process of the separate-process run took to come back after each fault,
 * counted from the moment the fault ended (the dependency restarted, or the killed process
 * respawned): an API is back at its first /readyz 200, a worker at its first poll, the work at
 * the first card prepared or sentence translated.
 */
import type { FaultRecord } from './faults.ts';
import type { PollSighting, Probe } from './observe.ts';
import { formatTable, OUTAGE_GRACE_MS } from './report.ts';

const APIS = ['api-a', 'api-b'];
const WORKERS = ['worker-a', 'worker-b'];

export function processRecovery(faults: FaultRecord[], probes: Probe[], sightings: PollSighting[], workResumed: (number | null)[]) {
  const origin = Math.min(...faults.map((f) => f.startedAt));
  const end = Math.max(0, ...probes.map((p) => p.at));
  let neverBack = 0;
  const rows = faults.map((fault, i) => {
    const after = (t: number | null | undefined, counts = true) => {
      if (t !== null && t !== undefined) return `+${((t - fault.endedAt) / 1000).toFixed(1)}`;
      if (counts) neverBack++;
      return 'never';
    };
    const apis = APIS.map((api) => {
      const mine = probes.filter((p) => p.api === api && p.at >= fault.startedAt);
      const back = mine.find((p) => p.status === 200 && p.at >= fault.endedAt);
      const hurt = mine.some((p) => p.status !== 200 && p.at <= (back?.at ?? end));
      return hurt || fault.target === api ? after(back?.at) : 'unaffected';
    });
    // Only a restart of Temporal or of the worker itself interrupts a worker's polling.
    const workers = WORKERS.map((worker) =>
      fault.kind === 'temporal-restart' || fault.target === worker
        ? after(sightings.find((s) => s.worker === worker && s.polledAt >= fault.endedAt)?.polledAt)
        : '-',
    );
    return [
      fault.label,
      ((fault.startedAt - origin) / 1000).toFixed(0),
      ((fault.endedAt - fault.startedAt) / 1000).toFixed(1),
      ...apis,
      ...workers,
      after(workResumed[i], false),
    ];
  });
  const lines = [
    'recovery after each fault, in s after the fault ended (API: first /readyz 200; worker: first poll; work: first card or sentence done):',
    formatTable(['fault', 'at s', 'lasted s', ...APIS, ...WORKERS, 'work'], rows),
    `slowest /readyz: ${slowestProbe(probes, faults)}`,
  ];
  return { lines, neverBack };
}

function slowestProbe(probes: Probe[], faults: FaultRecord[]): string {
  const slowest = [...probes].sort((x, y) => y.ms - x.ms)[0];
  if (!slowest) return 'no probes';
  const sentAt = slowest.at - slowest.ms;
  const during = faults.find((f) => slowest.at >= f.startedAt && sentAt <= f.endedAt + OUTAGE_GRACE_MS);
  return `${slowest.ms} ms (${slowest.api}, status ${slowest.status ?? 'no answer'}${during ? `, during "${during.label}"` : ''})`;
}
