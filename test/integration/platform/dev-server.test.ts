import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { freePorts } from '../../../src/platform/free-port.ts';
import { searchAttributesOf } from '../../../src/temporal/search-attributes.ts';
import { WORKFLOW_KINDS } from '../../../src/temporal/workflow-ids.ts';
import { scrapedSamples } from '../../../tools/prometheus-text.ts';
import { connectTemporal } from '../../../src/temporal/connection.ts';
import { type DevServer, DevServerStartError, startTemporalDevServer } from '../../../src/platform/temporal-dev-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function holdPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return (server.address() as net.AddressInfo).port;
}

async function devServer(options: Parameters<typeof startTemporalDevServer>[0]): Promise<DevServer> {
  const server = await startTemporalDevServer({ uiPort: null, ...options });
  cleanups.push(() => server.stop());
  return server;
}

describe('starting the Temporal dev server', () => {
  // "At once": ended by the CLI's exit, not by the start's own 60 s limit (START_TIMEOUT_MS); the test's 20 s
  // timeout is the hang guard that tells the two apart, not a latency goal.
  it('says in one line why a start failed, at once (a hang guard: past 20 s means it waited for its start limit)', async () => {
    const taken = await holdPort();
    const error = await startTemporalDevServer({ port: taken, uiPort: null }).then(
      (s) => {
        cleanups.push(() => s.stop());
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DevServerStartError);
    expect((error as Error).message).toMatch(new RegExp(`^Temporal dev server did not start: .*${taken}.*address already in use$`));
    expect((error as Error).message).not.toContain('\n');
  }, 20_000);

  it('chooses every port itself, distinct, and starts again with fresh ports when one was taken meanwhile', async () => {
    const taken = await holdPort();
    const lines: string[] = [];
    let choices = 0;
    // The first choice of HTTP port is taken by the time the CLI binds it, as another process may do.
    const choosePorts = async () => (choices++ === 0 ? [...(await freePorts(1)), taken, ...(await freePorts(2))] : freePorts(4));
    const server = await devServer({ choosePorts, log: (line) => lines.push(line) });
    expect(choices).toBe(2);
    expect(server.ports.http).not.toBe(taken);
    expect(new Set([server.ports.grpc, server.ports.http, server.ports.metrics]).size).toBe(3);
    expect(lines.join('\n')).toContain(`port ${taken} was taken meanwhile`);
    const client = await connectTemporal(server.address, 'default');
    cleanups.push(() => client.connection.close());
    await client.connection.workflowService.getSystemInfo({});
  });
});

describe('the Temporal dev server on a small server', () => {
  it('keeps a few history task workers and system pollers, not the thousands a cluster’s defaults start', async () => {
    const server = await devServer({});
    // The defaults start 2,327 goroutines in the history service within a second of serving
    // (its task schedulers' 2,240 workers); the gauge reads 0 until first reported.
    let goroutines = 0;
    for (let tries = 0; goroutines === 0 && tries < 100; tries++) {
      const metrics = await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`).then((r) => r.text());
      goroutines = Number(/^num_goroutines\{service_name="history"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
      if (goroutines === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(goroutines).toBeGreaterThan(0);
    expect(goroutines).toBeLessThan(1_000);
  });

  it('keeps the search attributes cached: starts that carry them, and their visibility records, do not read the cluster metadata', async () => {
    const server = await devServer({});
    const client = await connectTemporal(server.address, 'default');
    cleanups.push(() => client.connection.close());
    const persistenceRequests = async (operation: string) =>
      scrapedSamples(await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`).then((r) => r.text()), 'persistence_requests', { operation }).reduce(
        (total, sample) => total + sample.value,
        0,
      );
    // The server reports its counters every second or so: read them once they count every start so far.
    const metadataReadsOnceReported = async (created: number) => {
      while ((await persistenceRequests('CreateWorkflowExecution')) < created) await new Promise((r) => setTimeout(r, 200));
      return persistenceRequests('GetCurrentClusterMetadata');
    };
    const kind = WORKFLOW_KINDS.cardEnrichment;
    const start = (userId: string) =>
      client.workflow.start('cardEnrichment', {
        taskQueue: 'no-worker',
        workflowId: `${kind}/${randomUUID()}`,
        typedSearchAttributes: searchAttributesOf(userId, kind),
      });
    await start(randomUUID()); // the first loads the cache
    const before = await metadataReadsOnceReported(1);
    const userId = randomUUID();
    const starts = 20;
    for (let i = 0; i < starts; i++) await start(userId);
    // Found by them: their visibility records were written (with the CLI's default, each start and each record read the metadata again).
    while ((await client.workflow.count(`LcsUserId = '${userId}' AND LcsKind = '${kind}'`)).count < starts) await new Promise((r) => setTimeout(r, 100));
    expect(await metadataReadsOnceReported(1 + starts)).toBeLessThan(before + starts);
  });
});

describe('the Temporal dev server’s files', () => {
  it('keeps its folder 0700 and its SQLite database 0600, like the rest of DATA_DIR, also when an older start left them open', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'lcs-temporal-modes-'));
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    const dataDir = path.join(parent, 'temporal');
    const modes = async () => ({
      dir: (await stat(dataDir)).mode & 0o777,
      db: (await stat(path.join(dataDir, 'temporal.sqlite'))).mode & 0o777,
    });
    const first = await startTemporalDevServer({ uiPort: null, dataDir });
    expect(await modes()).toEqual({ dir: 0o700, db: 0o600 });
    await first.stop();
    // As an older version left them.
    await chmod(dataDir, 0o755);
    await chmod(path.join(dataDir, 'temporal.sqlite'), 0o644);
    await devServer({ dataDir });
    expect(await modes()).toEqual({ dir: 0o700, db: 0o600 });
  });
});

describe('a Temporal client after an outage', () => {
  it('sees the server again within seconds of its return, even after half a minute away', async () => {
    const first = await devServer({});
    const client: Client = await connectTemporal(first.address, 'default');
    cleanups.push(() => client.connection.close());
    await client.connection.workflowService.getSystemInfo({});

    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    // Requests keep coming during the outage (captures, the relay), and keep failing.
    const outageEnds = Date.now() + 30_000;
    while (Date.now() < outageEnds) {
      await client.connection.withDeadline(Date.now() + 500, () => client.connection.workflowService.getSystemInfo({})).catch(() => {});
      await new Promise((r) => setTimeout(r, 1_000));
    }

    await devServer({ port: first.ports.grpc }); // resolves once the port accepts connections
    const back = Date.now();
    for (;;) {
      const ok = await client.connection
        .withDeadline(Date.now() + 1_000, () => client.connection.workflowService.getSystemInfo({}))
        .then(
          () => true,
          () => false,
        );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
      if (Date.now() - back > 60_000) break;
    }
    const seenAfterMs = Date.now() - back;
    console.log(`Temporal client saw the server again ${seenAfterMs} ms after it was back from a 30 s outage`);
    expect(seenAfterMs).toBeLessThan(3_000);
  }, 120_000);
});
