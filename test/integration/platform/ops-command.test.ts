import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, inject, it, vi } from 'vitest';
import { useStack, type Started } from '../../support/fixture.ts';
import { capture, preparationCharges, waitForStatus } from '../library/helpers.ts';

let stack: Started['stack'];
let user: Started['user'];
useStack((started) => ({ stack, user } = started), { fakeCost: '0.00001' });

const script = fileURLToPath(new URL('../../../src/cli/ops.ts', import.meta.url));

/** `npm run ops -- …` as an operator runs it: the worker's configuration, the real database and Temporal. */
async function ops(...args: string[]): Promise<{ stdout: string; json: any }> {
  const infra = inject('infra');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], {
    env: {
      ...process.env,
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
      TEMPORAL_UI_URL: 'http://ui.example',
    },
  });
  return { stdout, json: args.includes('--json') ? JSON.parse(stdout) : null };
}

it('user <email>: the id, plan, balance, counts and a Temporal UI link filtered to that user', async () => {
  const { json } = await ops('--json', 'user', user.email);
  expect(json).toMatchObject({ userId: user.userId, plan: 'free' });
  expect(json.workflows).toBe(`http://ui.example/namespaces/default/workflows?query=${encodeURIComponent(`LcsUserId="${user.userId}"`)}`);
  const { stdout } = await ops('user', user.email.toUpperCase());
  expect(stdout).toContain(`user       ${user.userId}`);
}, 60_000);

it("failed lists cards that failed by code; retry prepares them again as a learner's retry does, charged once; costs shows the charge", async () => {
  stack.fake.setMode('fail', { status: 503 });
  const failed = await capture(stack, user, 'retried after an outage');
  await waitForStatus(stack, user, failed.cardId, 'failed', 60_000);

  const listed = await ops('--json', 'failed', '--since', '10m', '--code', 'service_unavailable', '--user', user.email);
  expect(listed.json.cards).toContainEqual(expect.objectContaining({ cardId: failed.cardId, userId: user.userId, code: 'service_unavailable' }));
  expect((await ops('--json', 'failed', '--code', 'insufficient_credits', '--user', user.email)).json.cards).toEqual([]);

  stack.fake.setMode('ok');
  // Scoped to this file's user: the suite's other files share the database, and their failed cards are theirs.
  // `redrive`, the command's name before the glossary, still answers for scripts (here a dry run).
  const wouldRetry = await ops('--json', 'redrive', '--dry-run', '--since', '10m', '--user', user.email);
  expect(wouldRetry.json.cards).toContainEqual(expect.objectContaining({ cardId: failed.cardId, code: 'service_unavailable' }));
  const retried = await ops('--json', 'retry', '--since', '10m', '--user', user.email);
  expect(retried.json.outcomes).toContainEqual({ cardId: failed.cardId, retried: true });
  await waitForStatus(stack, user, failed.cardId, 'ready', 60_000);
  expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === failed.cardId)).toHaveLength(1);
  // Nothing is left to retry, and a second run changes nothing.
  expect((await ops('--json', 'retry', '--since', '10m', '--user', user.email)).json.outcomes).toEqual([]);

  const costs = await ops('--json', 'costs', '--since', '1h');
  expect(costs.json.kinds).toContainEqual(expect.objectContaining({ kind: 'capture_preparation' }));
  expect(Number(costs.json.kinds.find((k: { kind: string }) => k.kind === 'capture_preparation').providerUsd)).toBeGreaterThan(0);
}, 180_000);

it('prepare-again --model prepares again the ready cards that model prepared, each charged as a preparation', async () => {
  const card = await capture(stack, user, 'prepared again by the operator');
  const ready = await waitForStatus(stack, user, card.cardId, 'ready', 60_000);
  expect(ready.preparedByModel).toBe(stack.config.model.model);
  const dry = await ops('--json', 'prepare-again', '--model', stack.config.model.model, '--user', user.email, '--dry-run');
  expect(dry.json.cards).toContainEqual({ cardId: card.cardId, userId: user.userId });
  expect((await ops('--json', 'prepare-again', '--model', 'some/other-model', '--user', user.email)).json.outcomes).toEqual([]);
  const done = await ops('--json', 'prepare-again', '--model', stack.config.model.model, '--user', user.email);
  expect(done.json.outcomes).toContainEqual({ cardId: card.cardId, prepared: true });
  await vi.waitFor(async () => expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId)).toHaveLength(2), {
    timeout: 60_000,
    interval: 200,
  });
  await waitForStatus(stack, user, card.cardId, 'ready', 60_000);
}, 90_000);

it('refuses a malformed duration and an unknown email in one line, without a stack trace', async () => {
  await expect(ops('failed', '--since', '1x')).rejects.toMatchObject({ stderr: expect.stringContaining('a duration such as 30m, 1h, 24h or 7d') });
  await expect(ops('user', 'nobody@example.test')).rejects.toMatchObject({ code: 2, stderr: 'No account with email nobody@example.test\n' });
}, 60_000);
