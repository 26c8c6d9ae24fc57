import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX, PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';
import { fakeTranslate } from '../../../src/model/fake-provider/responder.ts';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { emptyWallet } from '../sentences/support.ts';
import { batchCalls, pageCharges, providerItems, translateBody, uniqueText, type TranslateRequest } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

const { maxItems, maxTotalCodePoints } = PAGE_TRANSLATION_LIMITS;

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const translate = (body: TranslateRequest, token = user.token, expected5xx?: number[]) =>
  api(stack, { token, expected5xx }).POST('/api/immersive-translate', { body });

describe('POST /api/immersive-translate', () => {
  it('translates a batch in request order with ids, detected languages and the page-translation charge', async () => {
    const items = [
      { id: 'p2', text: uniqueText('Second paragraph') },
      { id: 'p1', text: uniqueText('First paragraph') },
    ];
    const body = translateBody(items);
    const before = await balanceOf(stack, user);
    const res = await translate(body);
    expectStatus(res, 200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body).toEqual({
      request_id: body.request_id,
      target_language: 'fr',
      items: items.map((i) => ({ id: i.id, text: fakeTranslate(i.text, 'fr'), detected_source_language: 'en' })),
      credits_charged: 3, // 0.0012 USD → 0.001 × 3 × 1000
    });
    expect(await balanceOf(stack, user)).toBe(before - 3);
    expect(await pageCharges(stack, user.userId)).toContainEqual({
      idempotency_key: expect.stringMatching(new RegExp(`^page-translation/${body.request_id}/`)),
      amount: -3,
    });
  });

  it('reports the given source language when it is not auto, and canonicalises tags', async () => {
    // Raw: the document lists the canonical spellings only.
    const body = { ...translateBody([{ id: 'a', text: uniqueText('Hallo Welt') }]), source_language: 'DE', target_language: 'zh-hant' };
    const res = await rawHttp(stack, 'POST', '/api/immersive-translate', { token: user.token, body });
    expectStatus(res, 200);
    expect(res.body.target_language).toBe('zh-Hant');
    expect(res.body.items[0].detected_source_language).toBe('de');
  });

  it(`sends all ${maxItems} uncached items to the provider in one call`, async () => {
    const items = Array.from({ length: maxItems }, (_, i) => ({ id: `n${i}`, text: uniqueText(`Item ${i}`) }));
    const res = await translate(translateBody(items));
    expectStatus(res, 200);
    expect(res.body.items.map((i) => i.id)).toEqual(items.map((i) => i.id));
    expect(batchCalls(stack)).toHaveLength(1);
    expect(providerItems(stack)).toHaveLength(maxItems);
  });

  it('splits a very large batch into parallel calls and charges their summed cost once', async () => {
    const items = Array.from({ length: 4 }, (_, i) => ({ id: `big${i}`, text: `${uniqueText('Long')} ${'word '.repeat(590)}` }));
    stack.fake.setCost('0.0009');
    const res = await translate(translateBody(items));
    expectStatus(res, 200);
    expect(batchCalls(stack)).toHaveLength(2);
    expect(res.body.credits_charged).toBe(6); // 0.0018 → 0.002 × 3 × 1000, not 2 × 3
  });

  it('charges for the part of a large batch that was delivered and kept when another part failed; the retry pays the rest', async () => {
    const items = Array.from({ length: 4 }, (_, i) => ({ id: `big${i}`, text: `${uniqueText(i < 2 ? 'Kept' : 'Broken')} ${'word '.repeat(590)}` }));
    const body = translateBody(items);
    stack.fake.setCost('0.0009');
    stack.fake.setResponder('translate_batch', (input) => {
      if (input.items.some((i: { text: string }) => i.text.startsWith('Broken'))) throw new Error('this chunk fails');
      return { items: input.items.map((i: { id: string; text: string }) => ({ id: i.id, text: fakeTranslate(i.text, 'fr'), detected_source_language: 'en' })) };
    });
    const before = await balanceOf(stack, user);
    const failed = await translate(body, user.token, [503]);
    expectProblem(failed, 503, 'service_unavailable');
    expect(failed.body.credits_charged).toBe(3); // the kept chunk: 0.0009 → 0.001 × 3 × 1000
    expect(failed.body.detail).toContain('kept and charged (3 credits)');
    expect(await balanceOf(stack, user)).toBe(before - 3);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).held).toBe(0); // the page's hold was settled to the kept cost

    stack.fake.reset();
    stack.fake.setCost('0.0009');
    const retry = await translate(body);
    expectStatus(retry, 200);
    expect(providerItems(stack).map((i) => i.text)).toEqual(items.slice(2).map((i) => i.text.replace(/\s+$/, '')));
    expect(retry.body.credits_charged).toBe(3);
    expect(retry.body.items.map((i) => i.text)).toEqual(items.map((i) => fakeTranslate(i.text.trim(), 'fr') + ' '));
    // Two provider calls were paid for, and the user paid for both: once each.
    const charges = (await pageCharges(stack, user.userId)).filter((c) => c.idempotency_key.startsWith(`page-translation/${body.request_id}`));
    expect(charges.map((c) => c.amount)).toEqual([-3, -3]);
    expect(await balanceOf(stack, user)).toBe(before - 6);
  });

  it('keeps placeholders and the outer whitespace of each item', async () => {
    const text = ` Click <b0>${uniqueText('here')}</b0> to see {0} results <x1/>  `;
    const res = await translate(translateBody([{ id: 'a', text }]));
    expectStatus(res, 200);
    expect(res.body.items[0]!.text).toBe(` ${fakeTranslate(text.trim().replace(/\s+/g, ' '), 'fr')}  `);
  });

  it.each([
    ['drops a placeholder', `Read <a0>${uniqueText('the docs')}</a0>`, (text: string) => text.replace(/<\/?a0>/g, ''), 'placeholder <a0> missing'],
    [
      'carries markup its source lacked',
      `Sign in ${uniqueText('now')}`,
      (text: string) => `${text} <img src=x onerror="alert(1)">`,
      'adds an HTML tag absent from the source',
    ],
  ])('rejects an answer that %s: 502, nothing charged, nothing cached', async (_name, text, corrupt, reason) => {
    const before = await balanceOf(stack, user);
    stack.fake.setResponder('translate_batch', (input) => ({
      items: input.items.map((i: { id: string; text: string }) => ({ id: i.id, text: corrupt(i.text), detected_source_language: 'en' })),
    }));
    const body = translateBody([{ id: 'a', text }]);
    const res = await translate(body, user.token, [502]);
    expectProblem(res, 502, 'provider_output_invalid');
    expect(res.body.detail).toContain(reason);
    expect(await balanceOf(stack, user)).toBe(before);

    stack.fake.reset();
    const retry = await translate(body); // same request_id: the failure stored nothing final
    expectStatus(retry, 200);
    expect(retry.body.items[0]!.text).toBe(fakeTranslate(text, 'fr'));
    expect(batchCalls(stack)).toHaveLength(1); // the bad answer was not cached
  });

  it.each([
    ['fail', 503, 'service_unavailable'],
    ['malformed', 502, 'provider_output_invalid'],
    ['schema_violation', 502, 'provider_output_invalid'],
    ['privacy_refusal', 503, 'privacy_routing_unavailable'],
  ] as const)('provider %s → %i %s, nothing charged, and the same request_id then succeeds', async (mode, status, code) => {
    const before = await balanceOf(stack, user);
    const body = translateBody([{ id: 'a', text: uniqueText(`Failure ${mode}`) }]);
    stack.fake.setMode(mode);
    expectProblem(await translate(body, user.token, [status]), status, code);
    expect(await balanceOf(stack, user)).toBe(before);
    stack.fake.setMode('ok');
    const retry = await translate(body);
    expectStatus(retry, 200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.credits_charged).toBe(3);
  });

  it('rejects an answer with an empty translation or a missing item', async () => {
    stack.fake.setResponder('translate_batch', (input) => ({
      items: input.items.map((i: { id: string }) => ({ id: i.id, text: '', detected_source_language: 'en' })),
    }));
    expectProblem(await translate(translateBody([{ id: 'a', text: uniqueText('Empty') }]), user.token, [502]), 502, 'provider_output_invalid');
    stack.fake.setResponder('translate_batch', (input) => ({
      items: input.items.slice(1).map((i: { id: string; text: string }) => ({ ...i, detected_source_language: 'en' })),
    }));
    const twoItems = translateBody([
      { id: 'a', text: uniqueText('One') },
      { id: 'b', text: uniqueText('Two') },
    ]);
    expectProblem(await translate(twoItems, user.token, [502]), 502, 'provider_output_invalid');
  });

  it('asks once more, showing the model what was wrong, when an answer puts a text under an id it was not sent: the page is translated', async () => {
    // Two items: the one answer to a batch of one is taken whatever its id.
    const texts = [uniqueText('Wrong id'), uniqueText('Right id')];
    stack.fake.setResponder('translate_batch', (input, { repairing }) => ({
      items: input.items.map((i: { id: string; text: string }, index: number) => ({
        id: repairing || index > 0 ? i.id : `${i.id}-renamed`,
        text: fakeTranslate(i.text, 'fr'),
        detected_source_language: 'en',
      })),
    }));
    const res = await translate(
      translateBody([
        { id: 'a', text: texts[0]! },
        { id: 'b', text: texts[1]! },
      ]),
    );
    expectStatus(res, 200);
    expect(res.body.items.map((i) => i.text)).toEqual(texts.map((t) => fakeTranslate(t, 'fr')));
    const [first, repair] = batchCalls(stack);
    expect(batchCalls(stack)).toHaveLength(2);
    expect(JSON.stringify(first!.body.messages)).not.toContain('unknown item id');
    expect(JSON.stringify(repair!.body.messages)).toContain('unknown item id');
  });
});

describe('translation cache', () => {
  it('serves other users from the cache: no provider call, 0 credits; case matters', async () => {
    const text = uniqueText('Shared sentence');
    expect((await translate(translateBody([{ id: 'a', text }]))).status).toBe(200);
    const other = await newUser(stack);
    stack.fake.reset();
    const cached = await translate(translateBody([{ id: 'x', text: `  ${text.replace(' ', '\u00a0 ')}` }]), other.token);
    expectStatus(cached, 200);
    expect(cached.body).toMatchObject({ credits_charged: 0, items: [{ id: 'x', text: `  ${fakeTranslate(text, 'fr')}`, detected_source_language: 'en' }] });
    expect(batchCalls(stack)).toHaveLength(0);
    expect(await pageCharges(stack, other.userId)).toEqual([]);

    const upper = await translate(translateBody([{ id: 'x', text: text.toUpperCase() }]), other.token);
    expect(bodyOf(upper, 200).credits_charged).toBe(3);
    expect(batchCalls(stack)).toHaveLength(1);
  });

  it('keys by language pair: another target or source is a miss', async () => {
    const text = uniqueText('Pair');
    await translate(translateBody([{ id: 'a', text }]));
    stack.fake.reset();
    await translate(translateBody([{ id: 'a', text }], { target_language: 'de' }));
    await translate(translateBody([{ id: 'a', text }], { source_language: 'en' }));
    expect(batchCalls(stack)).toHaveLength(2);
  });

  it('sends only the uncached items, once per distinct text, and charges for that part', async () => {
    const known = uniqueText('Known');
    await translate(translateBody([{ id: 'k', text: known }]));
    stack.fake.reset();
    const fresh = uniqueText('Fresh');
    const res = await translate(
      translateBody([
        { id: '1', text: known },
        { id: '2', text: fresh },
        { id: '3', text: fresh },
        { id: '4', text: '   ' },
      ]),
    );
    expectStatus(res, 200);
    expect(providerItems(stack).map((i) => i.text)).toEqual([fresh]);
    expect(res.body.items).toEqual([
      { id: '1', text: fakeTranslate(known, 'fr'), detected_source_language: 'en' },
      { id: '2', text: fakeTranslate(fresh, 'fr'), detected_source_language: 'en' },
      { id: '3', text: fakeTranslate(fresh, 'fr'), detected_source_language: 'en' },
      { id: '4', text: '   ', detected_source_language: 'und' },
    ]);
    expect(res.body.credits_charged).toBe(3);
  });
});

describe('credits and access', () => {
  it('answers 402 before any provider call when the balance is zero, but serves a fully cached page free', async () => {
    const text = uniqueText('Cached for the poor');
    await translate(translateBody([{ id: 'a', text }]));
    const poor = await newUser(stack);
    await emptyWallet(stack, poor.userId);
    stack.fake.reset();
    const body = translateBody([{ id: 'a', text: uniqueText('Not cached') }]);
    expectProblem(await translate(body, poor.token), 402, 'insufficient_credits');
    expect(batchCalls(stack)).toHaveLength(0);
    const free = await translate(translateBody([{ id: 'a', text }]), poor.token);
    expectStatus(free, 200);
    expect(free.body.credits_charged).toBe(0);
    // The 402 stored nothing: once credits exist, the same request_id goes through.
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 10 WHERE user_id = ?`, [poor.userId]);
    expect((await translate(body, poor.token)).status).toBe(200);
  });

  it('answers 428 before language setup, 403 to a read-only token and 401 without one', async () => {
    const fresh = await newUser(stack, { languages: null });
    expectProblem(await translate(translateBody([{ id: 'a', text: 'x' }]), fresh.token), 428, 'language_setup_required');
    const readOnly = bodyOf(await api(stack, { cookie: user.cookie }).POST('/api/tokens', { body: { name: 'ro', scope: 'read' } }), 201);
    expectProblem(await translate(translateBody([{ id: 'a', text: 'x' }]), readOnly.token), 403, 'read_only_token');
    expectProblem(await api(stack).POST('/api/immersive-translate', { body: translateBody([{ id: 'a', text: 'x' }]) }), 401, 'unauthenticated');
    expect(batchCalls(stack)).toHaveLength(0);
  });
});

describe('API reference', () => {
  it('documents both areas in the OpenAPI document', async () => {
    const doc = await rawHttp(stack, 'GET', '/api/openapi.json');
    expectStatus(doc, 200);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/immersive-translate', '/api/sentences']));
    expect(doc.body.info.description).toContain('## Page translation');
    expect(doc.body.info.description).toContain('## Sentences');
  });
});

describe('limits', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `i${i}`, text: 'Hi' }));

  it(`accepts ${maxItems} items and refuses ${maxItems + 1}`, async () => {
    stack.fake.setCost('0');
    expect((await translate(translateBody(items(maxItems)))).status).toBe(200);
    const res = await translate(translateBody(items(maxItems + 1)));
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors).toEqual([{ path: 'items', message: `at most ${maxItems} items per request` }]);
  });

  it(`counts code points: ${maxTotalCodePoints} with emoji and accents pass, one more is refused`, async () => {
    stack.fake.setCost('0');
    const half = Math.floor(maxTotalCodePoints / 2);
    const unique = uniqueText('');
    const ok = [
      { id: 'a', text: '😀'.repeat(half) },
      { id: 'b', text: `${'é'.repeat(maxTotalCodePoints - half - [...unique].length)}${unique}` },
    ];
    expect(ok.reduce((n, i) => n + [...i.text].length, 0)).toBe(maxTotalCodePoints);
    expect((await translate(translateBody(ok))).status).toBe(200);
    const over = [...ok, { id: 'c', text: 'x' }];
    const res = await translate(translateBody(over));
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors![0]).toMatchObject({ path: 'items', message: expect.stringContaining(String(maxTotalCodePoints)) });
  });

  it('names the field of every other limit', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [] }, 'items'],
      [{ items: [{ id: '', text: 'x' }] }, 'items.0.id'],
      [
        {
          items: [
            { id: 'a', text: 'x' },
            { id: 'a', text: 'y' },
          ],
        },
        'items.1.id',
      ],
      [{ request_id: 'x'.repeat(IDEMPOTENCY_KEY_MAX + 1) }, 'request_id'],
      [{ request_id: 'has space' }, 'request_id'],
      [{ target_language: 'auto' }, 'target_language'],
      [{ source_language: 'klingon' }, 'source_language'],
      [{ items: [{ id: 'a' }] }, 'items.0.text'],
    ];
    // Raw: a typed client cannot send most of these.
    for (const [overrides, path] of cases) {
      const body = { ...translateBody([{ id: 'a', text: 'x' }]), ...overrides };
      const res = await rawHttp(stack, 'POST', '/api/immersive-translate', { token: user.token, body });
      expectProblem(res, 400, 'invalid_request');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(overrides).slice(0, 80),
      ).toContain(path);
    }
    expect(batchCalls(stack)).toHaveLength(0);
  });
});

describe('text PostgreSQL cannot store', () => {
  it('refuses U+0000 and unpaired surrogates in ids and texts with 400, not 500', async () => {
    const cases: [{ id: string; text: string }, string][] = [
      [{ id: 'a\u0000', text: 'Hello' }, 'items.0.id'],
      [{ id: 'a\ud800', text: 'Hello' }, 'items.0.id'],
      [{ id: 'a', text: 'Hel\u0000lo' }, 'items.0.text'],
      [{ id: 'a', text: '\u0000' }, 'items.0.text'],
      [{ id: 'a', text: 'Hel\udc00lo' }, 'items.0.text'],
    ];
    for (const [item, path] of cases) {
      const res = await translate(translateBody([item]));
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors!.map((e) => e.path)).toContain(path);
    }
    expect(batchCalls(stack)).toHaveLength(0);
    // A well-formed surrogate pair (an emoji) is fine.
    expect((await translate(translateBody([{ id: 'a😀', text: uniqueText('Smile 😀') }]))).status).toBe(200);
  });
});
