/**
 * The faults, injected while the load runs, each recorded with when it began and when the
 * thing it broke was back (the dependency restarted, or the killed process respawned by its
 * supervisor). Recovery is measured from `endedAt`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Orm } from '../src/db/orm.ts';
import type { InFlight } from './client.ts';
import type { Load } from './load.ts';
import type { FaultKind, PlannedFault } from './options.ts';
import { RESTART_DELAY_MS } from './processes.ts';
import { type ChaosStack, fakeStatsAt, steerFake } from './stack.ts';

export interface FaultRecord {
  kind: FaultKind;
  label: string;
  /** The process the fault hit (kills), else null. */
  target: string | null;
  startedAt: number;
  endedAt: number;
  note: string;
}

/** Kinds during which the service depends on something that is away: its 5xx answers are "during an outage". */
export const OUTAGE_KINDS: readonly FaultKind[] = ['db-restart', 'temporal-restart', 'provider-failure'];
const DEFAULT_SECONDS: Partial<Record<FaultKind, number>> = { 'db-restart': 5, 'temporal-restart': 5, 'provider-failure': 10 };
const RESPAWN_TIMEOUT_MS = RESTART_DELAY_MS + 10_000;
const READY_AGAIN_TIMEOUT_MS = 120_000;

export async function injectFaults(
  stack: ChaosStack,
  load: Load,
  orm: Orm,
  plan: PlannedFault[],
  loadStart: number,
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const fault of plan) {
    const wait = loadStart + fault.at * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    const seconds = fault.seconds ?? DEFAULT_SECONDS[fault.kind] ?? 0;
    const record = await inject(stack, load, orm, fault, seconds);
    log(`fault ${record.label}: ${((record.endedAt - record.startedAt) / 1000).toFixed(1)} s${record.note ? `, ${record.note}` : ''}`);
    records.push(record);
    // One fault at a time: the next waits until a restarted process is ready again, so that
    // each recovery is the answer to one fault.
    for (const p of [...stack.apis.map((a) => a.process), ...stack.workers]) {
      if (!(await p.waitUntilReady(READY_AGAIN_TIMEOUT_MS))) log(`${p.name} not ready ${READY_AGAIN_TIMEOUT_MS / 1000} s after "${record.label}"`);
    }
  }
  return records;
}

async function inject(stack: ChaosStack, load: Load, orm: Orm, fault: PlannedFault, seconds: number): Promise<FaultRecord> {
  const startedAt = Date.now();
  const done = (label: string, target: string | null, note = '') => ({ kind: fault.kind, label, target, startedAt, endedAt: Date.now(), note });
  switch (fault.kind) {
    case 'worker-kill': {
      const worker = stack.workers[fault.target ?? 0]!;
      const pid = worker.pid;
      await worker.kill('SIGKILL');
      await worker.waitForRestart(pid, RESPAWN_TIMEOUT_MS);
      return done(`SIGKILL ${worker.name}`, worker.name, 'respawned by the supervisor');
    }
    case 'api-kill': {
      const api = stack.apis[fault.target ?? 0]!;
      const pid = api.process.pid;
      const caught = await killBetweenCommitAndAnswer(stack, fault.target ?? 0, load, orm);
      await api.process.waitForRestart(pid, RESPAWN_TIMEOUT_MS);
      const kinds = caught.committed.length > 0 ? caught.committed.map((f) => f.kind).join(', ') : 'none';
      return done(
        `SIGKILL ${api.name} between commit and answer`,
        api.name,
        `${caught.committed.length} committed request(s) unanswered at the kill (${kinds}); ${caught.inflight} in flight; ${caught.dropped} answer(s) dropped`,
      );
    }
    case 'db-restart': {
      await stack.db.stop();
      await sleep(seconds * 1000);
      await stack.db.start();
      return done(`PostgreSQL down ${seconds} s`, null);
    }
    case 'temporal-restart': {
      await stack.temporal.kill();
      await sleep(seconds * 1000);
      await stack.temporal.start();
      return done(`Temporal SIGKILL, down ${seconds} s`, null);
    }
    case 'provider-failure': {
      await steerFake(stack.fakeOrigin, 'fail-for', { ms: seconds * 1000, status: 503 });
      const failedBefore = await failedProviderCalls(stack);
      // Near its end, how many cards and sentences wait for the provider (and say so).
      await sleep(Math.max(0, seconds * 1000 - 1_000));
      const waiting = await waitingUnits(orm).catch(() => null);
      await sleep(Math.min(1_000, seconds * 1000));
      const refused = (await failedProviderCalls(stack)) - failedBefore;
      return done(
        `provider fails ${seconds} s (HTTP 503)`,
        null,
        `${waiting ? `${waiting.cards} card(s) and ${waiting.sentences} sentence(s) waiting for the language model near its end` : 'waiting units unknown'}; ` +
          `${refused} provider request(s) failed meanwhile`,
      );
    }
  }
}

/** Requests the fake provider has failed so far (its counts are never reset during a run). */
async function failedProviderCalls(stack: ChaosStack): Promise<number> {
  return Object.values((await fakeStatsAt(stack.fakeOrigin)).failed).reduce((a, b) => a + b, 0);
}

async function waitingUnits(orm: Orm): Promise<{ cards: number; sentences: number }> {
  const [row] = await orm.em.fork().execute<{ cards: string; sentences: string }[]>(
    `SELECT (SELECT count(*) FROM cards WHERE enrichment_status = 'pending' AND waiting_since IS NOT NULL) AS cards,
            (SELECT count(*) FROM sentences WHERE status = 'pending' AND waiting_since IS NOT NULL) AS sentences`,
  );
  return { cards: Number(row!.cards), sentences: Number(row!.sentences) };
}

const BURST = 8;
const CATCH_TIMEOUT_MS = 20_000;

/**
 * SIGKILLs an API while requests it has committed are still unanswered, and proves it: its
 * proxy holds every answer back, a burst of captures is sent to it, and the database is asked
 * which of the requests waiting on it have committed. Once one has, the API is killed and the
 * held answers are dropped, so the client sees its connection reset and retries.
 */
async function killBetweenCommitAndAnswer(stack: ChaosStack, apiIndex: number, load: Load, orm: Orm) {
  const api = stack.apis[apiIndex]!;
  api.proxy.hold();
  load.burst(apiIndex, BURST);
  const deadline = Date.now() + CATCH_TIMEOUT_MS;
  let committed: InFlight[] = [];
  let inflight: InFlight[] = [];
  while (Date.now() < deadline) {
    inflight = load.client.inflightOn(api.name);
    committed = await committedAmong(orm, load, inflight).catch(() => []);
    if (committed.length > 0) break;
    await sleep(50);
  }
  await api.process.kill('SIGKILL');
  const dropped = api.proxy.dropHeld();
  return { committed, inflight: inflight.length, dropped };
}

/** Those of the in-flight requests whose effect is already committed, though no answer came. */
async function committedAmong(orm: Orm, load: Load, inflight: InFlight[]): Promise<InFlight[]> {
  const keysOf = (kind: InFlight['kind']) => inflight.filter((f) => f.kind === kind && !acked(load, f)).map((f) => f.key);
  const em = orm.em.fork();
  const found = new Set<string>();
  const captures = keysOf('capture');
  const sentences = keysOf('sentence');
  const pages = keysOf('page');
  if (captures.length) (await em.execute<{ key: string }[]>(`SELECT text AS key FROM cards WHERE text IN (?)`, [captures])).forEach((r) => found.add(r.key));
  if (sentences.length)
    (await em.execute<{ key: string }[]>(`SELECT original_text AS key FROM sentences WHERE original_text IN (?)`, [sentences])).forEach((r) =>
      found.add(r.key),
    );
  if (pages.length)
    (
      await em.execute<{ key: string }[]>(`SELECT request_id AS key FROM page_translation_requests WHERE status = 'done' AND request_id IN (?)`, [pages])
    ).forEach((r) => found.add(r.key));
  return inflight.filter((f) => found.has(f.key) && !acked(load, f));
}

function acked(load: Load, flight: InFlight): boolean {
  if (flight.kind === 'capture') return load.acks.captures.has(flight.key);
  if (flight.kind === 'sentence') return load.acks.sentences.has(flight.key);
  return load.acks.pages.some((p) => p.requestId === flight.key);
}
