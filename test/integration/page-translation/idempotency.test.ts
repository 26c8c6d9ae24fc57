import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';

import { batchCalls, pageCharges, translateBody, uniqueText, type TranslateRequest } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const translate = (body: TranslateRequest, token = user.token) => api(stack, { token }).POST('/api/immersive-translate', { body });

describe('request_id idempotency', () => {
  it('replays the stored response for the same body with Idempotent-Replayed and charges nothing', async () => {
    const body = translateBody([{ id: 'a', text: uniqueText('Replay me') }]);
    const first = await translate(body);
    expectStatus(first, 200);
    const balance = await balanceOf(stack, user);
    // Raw: a typed client cannot send an unknown field or a language in another case.
    const again = await rawHttp(stack, 'POST', '/api/immersive-translate', {
      token: user.token,
      body: { ...body, unknown_field: true, target_language: 'FR' },
    });
    expectStatus(again, 200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(stack, user)).toBe(balance);
    expect(batchCalls(stack)).toHaveLength(1);
  });

  it('refuses a different body under the same request_id with 422 request_id_reused', async () => {
    const body = translateBody([{ id: 'a', text: uniqueText('Original') }]);
    expect((await translate(body)).status).toBe(200);
    expectProblem(await translate({ ...body, items: [{ id: 'a', text: 'Something else' }] }), 422, 'request_id_reused');
    expectProblem(await translate({ ...body, target_language: 'de' }), 422, 'request_id_reused');
    expectProblem(await translate({ ...body, items: [{ id: 'b', text: body.items[0]!.text }] }), 422, 'request_id_reused');
  });

  it('keeps request_ids per user: another user may use the same one', async () => {
    const body = translateBody([{ id: 'a', text: uniqueText('Mine') }]);
    expect((await translate(body)).status).toBe(200);
    const other = await newUser(stack);
    const theirs = await translate({ ...body, items: [{ id: 'a', text: uniqueText('Theirs') }] }, other.token);
    expectStatus(theirs, 200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 request_in_progress to a retry while the first is running', async () => {
    stack.fake.setLatency(1500);
    const body = translateBody([{ id: 'a', text: uniqueText('Slow') }]);
    const first = translate(body);
    await expect.poll(() => batchCalls(stack).length, { timeout: 5000 }).toBe(1);
    expectProblem(await translate(body), 409, 'request_in_progress');
    expectProblem(await translate({ ...body, items: [{ id: 'a', text: 'other' }] }), 422, 'request_id_reused');
    expect((await first).status).toBe(200);
    expect((await translate(body)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('makes one provider call and one charge for 20 concurrent posts of one request', async () => {
    stack.fake.setLatency(300);
    const body = translateBody(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, text: uniqueText(`Concurrent ${i}`) })));
    const before = await balanceOf(stack, user);
    const answers = await Promise.all(Array.from({ length: 20 }, () => translate(body)));
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    const [served] = fresh.map((a) => bodyOf(a, 200));
    for (const a of answers.filter((a) => a !== fresh[0])) {
      if (a.status === 200) expect(a.body).toEqual(served);
      else expectProblem(a, 409, 'request_in_progress');
    }
    expect(batchCalls(stack)).toHaveLength(1);
    expect((await pageCharges(stack, user.userId)).filter((c) => c.idempotency_key.startsWith(`page-translation/${body.request_id}/`))).toHaveLength(1);
    expect(await balanceOf(stack, user)).toBe(before - served!.credits_charged);
  });

  it('lets a running claim whose lease lapsed (its process died) be taken over', async () => {
    const body = translateBody([{ id: 'a', text: uniqueText('Orphaned') }]);
    const em = stack.orm.em.fork();
    await em.execute(
      `INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token, lease_expires_at)
       VALUES (?, ?, 'whatever', 'running', gen_random_uuid(), now() + interval '1 minute')`,
      [user.userId, body.request_id],
    );
    expectProblem(await translate(body), 422, 'request_id_reused');
    await em.execute(`UPDATE page_translation_requests SET lease_expires_at = now() - interval '1 second' WHERE request_id = ?`, [body.request_id]);
    const res = await translate(body);
    expectStatus(res, 200);
    expect((await translate(body)).headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('tRPC pageTranslation.translate', () => {
  it('translates and replays with the same rules', async () => {
    const body = translateBody([{ id: 'a', text: uniqueText('Over tRPC') }]);
    const first = await rawHttp(stack, 'POST', '/trpc/pageTranslation.translate', { token: user.token, body });
    expectStatus(first, 200);
    expect(first.body.result.data).toMatchObject({ request_id: body.request_id, replayed: false, credits_charged: 3 });
    const again = await rawHttp(stack, 'POST', '/trpc/pageTranslation.translate', { token: user.token, body });
    expect(again.body.result.data).toMatchObject({ replayed: true, credits_charged: 3 });
    const reused = await rawHttp(stack, 'POST', '/trpc/pageTranslation.translate', { token: user.token, body: { ...body, target_language: 'de' } });
    expectStatus(reused, 422);
    expect(reused.body.error.data.problem.code).toBe('request_id_reused');
    const invalid = await rawHttp(stack, 'POST', '/trpc/pageTranslation.translate', { token: user.token, body: { ...body, items: [] } });
    expectStatus(invalid, 400);
  });
});
