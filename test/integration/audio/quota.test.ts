import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWallet } from '../sentences/support.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { insertSentence, uniqueText } from './support.ts';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

const QUOTA = 3;
const WINDOW_SECONDS = 24 * 3600;

let stack: Stack;
beforeAll(async () => {
  // No worker: the quota is decided when a generation is asked for; the clips may stay pending.
  stack = await startStack({ env: { AUDIO_QUOTA_CLIPS: String(QUOTA), AUDIO_QUOTA_WINDOW_HOURS: '24' }, worker: false });
});
afterAll(async () => {
  await stack?.close();
});

/** A user with no credits at all: the local engine is free, so only the quota stops them. */
async function brokeUser(): Promise<TestUser> {
  const user = await newUser(stack);
  await emptyWallet(stack, user.userId);
  return user;
}

const requestClip = async (user: TestUser, text = uniqueText('Clip')) =>
  api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId: await insertSentence(stack.orm, user.userId, text) } });

async function useUpQuota(user: TestUser) {
  for (let i = 0; i < QUOTA; i++) {
    const res = await requestClip(user);
    expectStatus(res, 202);
  }
}

describe('audio generation quota', () => {
  it(`lets an account start ${QUOTA} generations per window, then answers 429 audio_quota_exceeded with Retry-After`, async () => {
    const user = await brokeUser();
    await useUpQuota(user);
    const refused = await requestClip(user);
    expectProblem(refused, 429, 'audio_quota_exceeded');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(WINDOW_SECONDS - 120);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.body.retryAfterSeconds).toBe(retryAfter);
    const clips = await stack.orm.em.fork().execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM audio_clips WHERE requested_by = ?`, [user.userId]);
    expect(clips[0]!.n).toBe(QUOTA); // the refused request stored no clip
  });

  it('still serves clips that exist already, free and uncounted', async () => {
    const [starter, user] = await Promise.all([brokeUser(), brokeUser()]);
    const shared = uniqueText('Shared clip');
    expect((await requestClip(starter, shared)).status).toBe(202);
    await useUpQuota(user);
    const existing = await requestClip(user, shared); // someone else's generation, still pending
    expectStatus(existing, 202);
    expectProblem(await requestClip(user), 429, 'audio_quota_exceeded');
  });

  it('counts concurrent requests exactly', async () => {
    const user = await brokeUser();
    const answers = await Promise.all(Array.from({ length: 8 }, () => requestClip(user)));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(QUOTA).fill(202), ...Array(8 - QUOTA).fill(429)]);
  });

  it('frees a slot once a start leaves the window', async () => {
    const user = await brokeUser();
    await useUpQuota(user);
    expectProblem(await requestClip(user), 429, 'audio_quota_exceeded');
    await stack.orm.em.fork().execute(
      `UPDATE audio_generation_starts SET started_at = now() - interval '25 hours'
       WHERE id = (SELECT min(id) FROM audio_generation_starts WHERE user_id = ?)`,
      [user.userId],
    );
    expect((await requestClip(user)).status).toBe(202);
    expectProblem(await requestClip(user), 429, 'audio_quota_exceeded');
  });

  it('applies to tRPC audio.request too, with the same code and Retry-After', async () => {
    const user = await brokeUser();
    await useUpQuota(user);
    const sentenceId = await insertSentence(stack.orm, user.userId, uniqueText('Over tRPC'));
    const res = await rawHttp(stack, 'POST', '/trpc/audio.request', { token: user.token, body: { sentenceId } });
    expectStatus(res, 429);
    expect(res.body.error.data.problem.code).toBe('audio_quota_exceeded');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(WINDOW_SECONDS - 120);
    expect(res.body.error.data.problem.retryAfterSeconds).toBe(Number(res.headers.get('retry-after')));
  });
});
