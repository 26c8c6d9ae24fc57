/**
 * The second run: `npm start` itself (MODEL_PROVIDER=fake), under a light load, with its
 * Temporal dev server and then its PostgreSQL SIGKILLed. After each kill it is watched: does it
 * come back by itself (a capture made after the kill gets prepared), or exit non-zero so that a
 * supervisor can restart it? If neither, it "needs a hand": it is restarted as an operator
 * would, on the same data directory, which is itself worth watching.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../src/platform/free-port.ts';
import { audit, waitForQuiescence } from './audit.ts';
import { CarefulClient } from './client.ts';
import type { FaultRecord } from './faults.ts';
import { Load } from './load.ts';
import { NpmStartProcess } from './npm-start-process.ts';
import type { ChaosOptions } from './options.ts';
import { buildPlan } from './plan.ts';
import { alive, descendants, isPostmaster, isTemporalDevServer, type ProcInfo } from './proc-tree.ts';
import { buildReport, formatTable, type Report } from './report.ts';

interface Watch {
  fault: FaultRecord;
  cameBackAfterMs: number | null;
  exit: string | null;
  dependencyRestarted: boolean;
  healthz: Set<string>;
  loudLines: number;
  operatorRestart: string | null;
}

export async function runNpmStart(options: ChaosOptions, dir: string, log: (line: string) => void): Promise<Report> {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const started = Date.now();
  const service = new NpmStartProcess(dir, { http: await freePort(), ui: await freePort(), metrics: await freePort() });
  log(`npm start (MODEL_PROVIDER=fake, DATA_DIR=${service.dataDir})`);
  await service.start();
  try {
    const watchMs = options.npmStartWatchSeconds * 1000;
    const sizes = { users: 2, captures: 120, pageSends: 20, sentences: 10, loadSeconds: 2 * options.npmStartWatchSeconds + 50 };
    const client = new CarefulClient([{ name: 'npm-start', baseUrl: service.baseUrl }], options.clientPatienceSeconds * 1000);
    const load = new Load(client, buildPlan(sizes, 9));
    await load.signUp(sizes.users);
    const loading = load.run();

    const watches: Watch[] = [];
    for (const [what, label, find] of [
      ['temporal', 'npm start: Temporal dev server SIGKILL', isTemporalDevServer],
      ['postgres', 'npm start: PostgreSQL SIGKILL', isPostmaster],
    ] as const) {
      await sleep(15_000);
      const watch = await killAndWatch(service, what === 'temporal' ? 'temporal-restart' : 'db-restart', label, find, watchMs);
      log(
        `${label}: ${watch.cameBackAfterMs !== null ? `came back after ${(watch.cameBackAfterMs / 1000).toFixed(1)} s` : (watch.exit ?? 'did not come back')}`,
      );
      if (watch.cameBackAfterMs === null) {
        // Exited (a supervisor's turn) or hung (an operator's): either way it is started again.
        const restart = await service.restart();
        watch.operatorRestart = restart;
        log(`npm start restarted on the same data directory: ${restart}`);
      }
      watch.fault.endedAt = Date.now();
      watches.push(watch);
    }

    await loading;
    const orm = await service.orm();
    const quiescence = await waitForQuiescence(orm, options.quiescenceSeconds * 1000, log);
    const fakeStats = await service.fakeStats();
    return buildReport({
      title: 'npm start',
      sizes,
      quiescenceSeconds: options.quiescenceSeconds,
      faults: watches.map((w) => w.fault),
      audit: await audit(orm, load.acks, quiescence),
      answers: client.answers,
      unanswered: load.unanswered,
      longest: [...load.longest.values()],
      exits: [],
      fakeStats,
      seconds: (Date.now() - started) / 1000,
      recovery: {
        lines: [
          'after each kill (watched for ' + options.npmStartWatchSeconds + ' s; "came back" = a capture made after the kill got prepared):',
          formatTable(
            ['fault', 'came back by itself', 'npm start exited', 'dependency restarted', '/healthz meanwhile', 'warn+ log lines', 'restart on same data dir'],
            watches.map((w) => [
              w.fault.label,
              w.cameBackAfterMs === null ? 'no' : `after ${(w.cameBackAfterMs / 1000).toFixed(1)} s`,
              w.exit ?? 'no',
              w.dependencyRestarted ? 'yes' : 'no',
              [...w.healthz].join('/'),
              String(w.loudLines),
              w.operatorRestart ?? '-',
            ]),
          ),
        ],
        neverBack: watches.filter((w) => w.cameBackAfterMs === null && w.exit === null).length,
      },
    });
  } finally {
    await service.stop();
  }
}

async function killAndWatch(
  service: NpmStartProcess,
  kind: FaultRecord['kind'],
  label: string,
  find: (p: ProcInfo) => boolean,
  watchMs: number,
): Promise<Watch> {
  const fault: FaultRecord = { kind, label, target: null, startedAt: Date.now(), endedAt: 0, note: '' };
  const watch: Watch = { fault, cameBackAfterMs: null, exit: null, dependencyRestarted: false, healthz: new Set(), loudLines: 0, operatorRestart: null };
  const target = descendants(service.pid!).find(find);
  if (!target) {
    watch.exit = `no ${kind} child found`;
    return watch;
  }
  process.kill(target.pid, 'SIGKILL');
  const killedAt = Date.now();
  const loudBefore = service.loudLines();
  while (Date.now() - killedAt < watchMs) {
    await sleep(1_000);
    if (service.exited) {
      watch.exit = `${service.exited} after ${((service.exitedAt - killedAt) / 1000).toFixed(1)} s`;
      break;
    }
    watch.healthz.add(await status(`${service.baseUrl}/healthz`));
    if (descendants(service.pid!).some((p) => find(p) && p.pid !== target.pid)) watch.dependencyRestarted = true;
    if (await service.preparedSince(killedAt + 1_000)) {
      watch.cameBackAfterMs = Date.now() - killedAt;
      break;
    }
  }
  watch.loudLines = service.loudLines() - loudBefore;
  if (alive(target.pid)) watch.exit = `${kind} child still alive after SIGKILL`;
  return watch;
}

async function status(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
    await res.arrayBuffer();
    return String(res.status);
  } catch {
    return 'no answer';
  }
}
