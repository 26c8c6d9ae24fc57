/**
 * One chaos run against the service as separate processes: start everything, sign users up,
 * run the load with the faults injected meanwhile, wait for quiescence, audit, report.
 */
import { createOrm } from '../src/db/orm.ts';
import { audit, firstCompletionsAfter, waitForQuiescence } from './audit.ts';
import { CarefulClient } from './client.ts';
import { injectFaults } from './faults.ts';
import { Load } from './load.ts';
import { observe } from './observe.ts';
import { processRecovery } from './recovery.ts';
import type { ChaosOptions } from './options.ts';
import { buildPlan } from './plan.ts';
import { buildReport, type Report } from './report.ts';
import { fakeStatsAt, startStack, TASK_QUEUE } from './stack.ts';

export async function runSeparateProcesses(options: ChaosOptions, dir: string, log: (line: string) => void): Promise<Report> {
  const started = Date.now();
  log(`starting PostgreSQL, Temporal, the fake provider, 2 APIs and 2 workers (logs in ${dir}/logs)`);
  const stack = await startStack(dir, options.serviceEnv);
  const orm = await createOrm(stack.db.url, { poolMax: 4 });
  try {
    log(`stack up after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const client = new CarefulClient(stack.apis, options.clientPatienceSeconds * 1000);
    const load = new Load(client, buildPlan(options));
    await load.signUp(options.users);
    const observer = await observe(stack.apis, stack.workers, stack.temporal.address, TASK_QUEUE);

    const loadStart = Date.now();
    log(
      `load: ${options.captures} captures, ${options.pageSends} page-translation sends, ${options.sentences} async sentences over ${options.loadSeconds} s ` +
        `from ${options.users} users`,
    );
    const [faults] = await Promise.all([injectFaults(stack, load, orm, options.faults, loadStart, log), load.run()]);
    log(`load done after ${((Date.now() - loadStart) / 1000).toFixed(1)} s; waiting for quiescence (at most ${options.quiescenceSeconds} s)`);

    const quiescence = await waitForQuiescence(orm, options.quiescenceSeconds * 1000, log);
    // A worker restarted by the last fault may have become ready only just now.
    await observer.waitForPolls(30_000);
    await observer.stop();
    const fakeStats = await fakeStatsAt(stack.fakeOrigin);
    const workResumed = await firstCompletionsAfter(
      orm,
      faults.map((f) => f.endedAt),
    );
    return buildReport({
      title: `separate processes (${options.profile})`,
      sizes: options,
      quiescenceSeconds: options.quiescenceSeconds,
      faults,
      audit: await audit(orm, load.acks, quiescence),
      answers: client.answers,
      unanswered: load.unanswered,
      longest: [...load.longest.values()],
      exits: stack.exits,
      fakeStats,
      seconds: (Date.now() - started) / 1000,
      recovery: processRecovery(faults, observer.probes, observer.sightings, workResumed),
    });
  } finally {
    await orm.close().catch(() => {});
    await stack.close();
  }
}
