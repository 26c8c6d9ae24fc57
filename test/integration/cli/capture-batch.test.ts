import { describe, expect, it } from 'vitest';
import { LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import type { TestUser } from '../../support/users.ts';
import { runLcs, tempHome } from './run-lcs.ts';
import { api, bodyOf } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
// Three captures per two-second window: a batch of twelve meets 429s and must wait them out.
useStack((started: Started) => ({ stack, user } = started), { worker: false, env: { RATE_LIMIT_MODEL_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '2' } });

describe('lcs capture from stdin under the rate limit', () => {
  it('waits out each 429 Retry-After and captures every line once', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `batch expression number ${String.fromCharCode(97 + i)}`);
    const started = Date.now();
    const run = await runLcs(['capture', '--json', '--concurrency', '3'], {
      home: tempHome(),
      env: { LCS_URL: stack.baseUrl, LCS_TOKEN: user.token },
      stdin: lines.join('\n'),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ new: 12, reused: 0, failed: 0 });
    expect(run.json.items.map((i: any) => i.text)).toEqual(lines); // in input order, whatever finished first
    expect(Date.now() - started).toBeGreaterThan(2_000); // it had to wait at least one window
    const listed = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { limit: LIST_LIMIT_MAX } } }), 200);
    expect(listed.items).toHaveLength(12);
  });
});
