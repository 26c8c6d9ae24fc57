/**
 * What the run watches while it goes, to tell when each process is back after a fault: every
 * API's /readyz (database and Temporal) twice a second, and which workers poll the task queue
 * (Temporal lists each poller by identity, `<pid>@<host>`, with the time of its last poll).
 */
import os from 'node:os';
import type { Client } from '@temporalio/client';
import { connectTemporal } from '../src/temporal/connection.ts';
import type { SupervisedProcess } from './processes.ts';

export interface Probe {
  api: string;
  at: number;
  status: number | null;
  ms: number;
}
/** A worker seen polling: `polledAt` is Temporal's record of its last poll. */
export interface PollSighting {
  worker: string;
  pid: number;
  at: number;
  polledAt: number;
}

export interface Observer {
  probes: Probe[];
  sightings: PollSighting[];
  /** Waits (at most `timeoutMs`) until every worker's current process has been seen polling. */
  waitForPolls(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 5_000;
const POLLERS_EVERY_MS = 1_000;
// temporal.api.enums.v1: TaskQueueType WORKFLOW = 1, ACTIVITY = 2; TaskQueueKind NORMAL = 1.
const TASK_QUEUE_TYPES = [1, 2];
const TASK_QUEUE_KIND_NORMAL = 1;

export async function observe(
  apis: { name: string; baseUrl: string }[],
  workers: SupervisedProcess[],
  temporalAddress: string,
  taskQueue: string,
): Promise<Observer> {
  const probes: Probe[] = [];
  const sightings: PollSighting[] = [];
  let stopped = false;
  const loops: Promise<void>[] = [];

  const every = (ms: number, tick: () => Promise<void>) =>
    loops.push(
      (async () => {
        while (!stopped) {
          const started = Date.now();
          await tick().catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + ms - Date.now())));
        }
      })(),
    );

  for (const api of apis) {
    every(PROBE_EVERY_MS, async () => {
      const sentAt = Date.now();
      let status: number | null = null;
      try {
        const res = await fetch(`${api.baseUrl}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        /* no answer */
      }
      probes.push({ api: api.name, at: Date.now(), status, ms: Date.now() - sentAt });
    });
  }

  let client: Client | undefined;
  every(POLLERS_EVERY_MS, async () => {
    client ??= await connectTemporal(temporalAddress, 'default');
    const at = Date.now();
    for (const taskQueueType of TASK_QUEUE_TYPES) {
      const described = await client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
        taskQueueType,
      });
      for (const poller of described.pollers ?? []) {
        const worker = workers.find((w) => poller.identity === `${w.pid}@${os.hostname()}`);
        const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
        const polledAt = seconds * 1000 + Math.floor((poller.lastAccessTime?.nanos ?? 0) / 1e6);
        if (worker) sightings.push({ worker: worker.name, pid: worker.pid!, at, polledAt });
      }
    }
  });

  return {
    probes,
    sightings,
    async waitForPolls(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !workers.every((w) => sightings.some((s) => s.pid === w.pid))) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
      await client?.connection.close().catch(() => {});
    },
  };
}
