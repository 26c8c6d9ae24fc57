import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChaosOptions } from '../../../chaos/options.ts';
import type { Goal, Report } from '../../../chaos/report.ts';
import { runSeparateProcesses } from '../../../chaos/scenario.ts';

/**
 * The short chaos run (`npm run chaos -- --short`): the service as separate processes (PostgreSQL,
 * Temporal, two APIs, two workers, the fake provider at 300–800 ms) under a small load, with one
 * fault of each kind: a worker SIGKILL, a provider failure window, a PostgreSQL restart, a
 * Temporal restart and an API SIGKILL between commit and answer. It starts its own processes,
 * not the suite's shared ones.
 */

/**
 * Goals the code misses today, by name, each with the reason; empty since issue 8's fixes (503s
 * carry Retry-After, lost connections are a 503, long calls heartbeat). A name goes here only
 * with an open issue that says why.
 */
const KNOWN_OPEN = new Set<string>();

const RUN_BUDGET_MS = 180_000;
let report: Report;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-chaos-test-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as an unprivileged user and must reach its data dir
  report = await runSeparateProcesses(parseChaosOptions(['--short']), dir, () => {});
  console.log(report.lines.join('\n'));
}, RUN_BUDGET_MS);

afterAll(() => {
  // Every process's log stays for a look when a goal failed.
  if (report?.goals.some((g) => !g.ok && !KNOWN_OPEN.has(g.name))) console.log(`chaos logs: ${dir}/logs`);
  else if (dir) rmSync(dir, { recursive: true, force: true });
});

const failing = (kind: Goal['kind']) => report.goals.filter((g) => g.kind === kind && !g.ok && !KNOWN_OPEN.has(g.name)).map((g) => `${g.name}: ${g.value}`);

describe('the short chaos run', () => {
  it('loses nothing it acknowledged, charges nothing twice and leaves every wallet equal to its ledger', () => {
    expect(report.goals.filter((g) => g.kind === 'zero').length).toBeGreaterThanOrEqual(8);
    expect(failing('zero')).toEqual([]);
  });

  it('leaves nothing pending and needs no hand to bring any process back', () => {
    expect(failing('hands-off')).toEqual([]);
  });

  it('answers no 500, and 5xx only while a dependency is away', () => {
    expect(failing('answers')).toEqual([]);
  });

  it('really put each fault in the way of the load', () => {
    const text = report.lines.join('\n');
    expect(text).toMatch(/SIGKILL api-a between commit and answer, [\d.]+ s: [1-9]\d* committed request\(s\) unanswered at the kill/);
    expect(text).toMatch(/captures acknowledged\s+80\b/);
    for (const fault of ['SIGKILL worker-a', 'PostgreSQL down', 'Temporal SIGKILL']) expect(text).toContain(fault);
  });

  it('waits out a provider outage longer than the 15 s after which background work used to fail: cards wait, none fails', () => {
    const text = report.lines.join('\n');
    const outage = /provider fails (\d+) s \(HTTP 503\), [\d.]+ s: (\d+) card\(s\) and (\d+) sentence\(s\) waiting for the language model near its end/.exec(
      text,
    );
    expect(outage, text).not.toBeNull();
    expect(Number(outage![1])).toBeGreaterThan(15);
    expect(Number(outage![2])).toBeGreaterThan(0);
    expect(report.goals.find((g) => g.name.startsWith('cards failed service_unavailable'))).toMatchObject({ ok: true });
    expect(report.goals.find((g) => g.name.startsWith('sentences failed service_unavailable'))).toMatchObject({ ok: true });
  });
});
