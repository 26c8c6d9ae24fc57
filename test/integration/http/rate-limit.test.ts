import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLanguages, signUp } from '../../../src/features/account/service.ts';
import { generateToken } from '../../../src/domain/tokens.ts';
import { metricsRegistry } from '../../../src/platform/metrics.ts';
import { createToken } from '../../../src/features/account/tokens.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { hasOperation } from '../../support/helpers.ts';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

const MAX = 5;
const MODEL_MAX = 2;
// A long window makes a window boundary falling inside a test (which would reset the counts) rare.
const WINDOW_SECONDS = 3600;
const env = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_MODEL_MAX: String(MODEL_MAX), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };

let stack: Stack;
let second: Stack;
beforeAll(async () => {
  [stack, second] = await Promise.all([startStack({ worker: false, env }), startStack({ worker: false, env })]);
  const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
});
afterAll(async () => {
  await Promise.all([stack?.close(), second?.close()]);
});

/**
 * Users are made through the services, not the API: sign-up is counted per client address, and
 * every test file on this machine shares 127.0.0.1's count in PostgreSQL.
 */
async function user(): Promise<{ userId: string; token: string }> {
  const ctx = stack.context();
  const { account } = await signUp(ctx, `user-${randomUUID()}@example.test`, 'correct horse battery staple');
  await setLanguages(ctx, account.userId, 'en', 'fr');
  const { token } = await createToken(ctx, account.userId, { name: 'rate', scope: 'write' });
  return { userId: account.userId, token };
}

/** 429s counted for operators under `lcs_rate_limited_total{limit}` (this process's registry). */
async function refusalsCounted(limit: string): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('lcs_rate_limited_total');
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => v.labels.limit === limit)?.value ?? 0;
}

/** The first model-backed capture/translate/work route present; POST /api/library is the reference one. */
function modelRoute(doc: any): string {
  return ['/api/library', '/api/work', '/api/sentences', '/api/immersive-translate'].find((p) => hasOperation(doc, 'POST', p)) ?? '/api/library';
}

describe('rate limits', () => {
  it('count tRPC model-backed procedures in the same model bucket, with Retry-After on 429', async () => {
    const { token } = await user();
    const capture = (text: string) => rawHttp(stack, 'POST', '/trpc/library.capture', { token, body: { text } });
    for (let i = 0; i < MODEL_MAX; i++) expect((await capture(`trpc limited ${i}`)).status).toBe(200);
    // Refused by the transport before the procedure runs: a plain problem, as for REST.
    const limited = await capture('trpc limited, one too many');
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // REST shares the budget: the user's model bucket is spent there too.
    expectProblem(await api(stack, { token }).POST('/api/library', { body: { text: 'rest after trpc' } }), 429, 'rate_limited');
  });

  it('count tRPC audio.request in the model bucket, like POST /api/audio', async () => {
    const { token } = await user();
    // Raw: an empty body (refused by validation, after it was counted).
    for (let i = 0; i < MODEL_MAX; i++) expect((await rawHttp(stack, 'POST', '/api/library', { token, body: {} })).status).toBe(400);
    expectProblem(await rawHttp(stack, 'POST', '/trpc/audio.request', { token, body: { cardId: randomUUID() } }), 429, 'rate_limited');
    expectProblem(await api(stack, { token }).POST('/api/audio', { body: { cardId: randomUUID() } }), 429, 'rate_limited');
  });

  it('answer 429 with Retry-After and RateLimit-* headers once a user’s budget is spent', async () => {
    const { token } = await user();
    for (let i = 1; i <= MAX; i++) {
      const res = await api(stack, { token }).GET('/api/me');
      expectStatus(res, 200);
      expect(res.headers.get('ratelimit-limit')).toBe(String(MAX));
      expect(res.headers.get('ratelimit-remaining')).toBe(String(MAX - i));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const limited = await api(stack, { token }).GET('/api/me');
    expectProblem(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(limited.headers.get('ratelimit-limit')).toBe(String(MAX));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toEqual(expect.any(String));
    // Writes are in the same bucket.
    expectProblem(await api(stack, { token }).PUT('/api/settings/language', { body: { targetLanguage: 'en', nativeLanguage: 'de' } }), 429, 'rate_limited');
  });

  it('are per user: another user is unaffected', async () => {
    const [busy, quiet] = await Promise.all([user(), user()]);
    for (let i = 0; i < MAX; i++) expect((await api(stack, { token: busy.token }).GET('/api/me')).status).toBe(200);
    expectProblem(await api(stack, { token: busy.token }).GET('/api/me'), 429, 'rate_limited');
    const res = await api(stack, { token: quiet.token }).GET('/api/me');
    expectStatus(res, 200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
  });

  it('count a user, not a token: two tokens share one budget', async () => {
    const { userId, token } = await user();
    const { token: another } = await createToken(stack.context(), userId, { name: 'second', scope: 'read' });
    for (let i = 0; i < MAX; i++) expect((await api(stack, { token: i % 2 ? token : another }).GET('/api/credits')).status).toBe(200);
    expectProblem(await api(stack, { token: another }).GET('/api/credits'), 429, 'rate_limited');
  });

  it('give model-backed routes a tighter bucket of their own', async () => {
    // The document is read in-process: anonymous requests share 127.0.0.1's count with every test file.
    const route = modelRoute(stack.app.swagger());
    const { token } = await user();
    // An empty body is refused by validation after the request was counted: no model call, no charge.
    // Raw: the route is the document's, found at run time, and the body is empty.
    for (let i = 1; i <= MODEL_MAX; i++) {
      const res = await rawHttp(stack, 'POST', route, { token, body: {} });
      expect(res.status, res.text).not.toBe(429);
      expect(res.headers.get('ratelimit-limit')).toBe(String(MODEL_MAX));
    }
    const limited = await rawHttp(stack, 'POST', route, { token, body: {} });
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The model bucket being spent leaves the general one alone.
    const me = await api(stack, { token }).GET('/api/me');
    expectStatus(me, 200);
    expect(me.headers.get('ratelimit-remaining')).toBe(String(MAX - 1));
  });

  it('are shared in PostgreSQL by every API process', async () => {
    const { token } = await user();
    for (let i = 0; i < MAX; i++) {
      const res = await api(i % 2 ? second : stack, { token }).GET('/api/me');
      expectStatus(res, 200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(MAX - 1 - i));
    }
    expectProblem(await api(second, { token }).GET('/api/me'), 429, 'rate_limited');
    expectProblem(await api(stack, { token }).GET('/api/me'), 429, 'rate_limited');
  });

  it('count concurrent requests exactly: MAX pass, the rest are refused', async () => {
    const { token } = await user();
    const results = await Promise.all(Array.from({ length: MAX * 3 }, (_, i) => api(i % 2 ? second : stack, { token }).GET('/api/me')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX);
    expect(statuses.filter((s) => s === 429)).toHaveLength(MAX * 2);
  });

  it('do not apply to health checks', async () => {
    for (let i = 0; i < MAX + 2; i++) expect((await api(stack).GET('/healthz')).status).toBe(200);
  });
});

describe('per-user buckets refill evenly', () => {
  const EDGE_MAX = 4;
  const EDGE_WINDOW_MS = 2000;
  let edge: Stack;
  beforeAll(async () => {
    edge = await startStack({ worker: false, env: { RATE_LIMIT_MAX: String(EDGE_MAX), RATE_LIMIT_WINDOW_SECONDS: String(EDGE_WINDOW_MS / 1000) } });
  });
  afterAll(async () => {
    await edge?.close();
  });

  it('so that a client cannot spend two budgets across what would be a fixed window’s edge', async () => {
    const ctx = edge.context();
    const { account } = await signUp(ctx, `user-${randomUUID()}@example.test`, 'correct horse battery staple');
    const { token } = await createToken(ctx, account.userId, { name: 'edge', scope: 'read' });
    // Start just before a multiple of the window, where fixed windows (aligned to the epoch) turn over.
    const untilEdge = EDGE_WINDOW_MS - (Date.now() % EDGE_WINDOW_MS);
    await new Promise((resolve) => setTimeout(resolve, untilEdge < 600 ? untilEdge + EDGE_WINDOW_MS - 400 : untilEdge - 400));
    const before = await Promise.all(Array.from({ length: EDGE_MAX }, () => api(edge, { token }).GET('/api/credits')));
    await new Promise((resolve) => setTimeout(resolve, EDGE_WINDOW_MS - (Date.now() % EDGE_WINDOW_MS) + 20));
    const after = await Promise.all(Array.from({ length: EDGE_MAX }, () => api(edge, { token }).GET('/api/credits')));
    expect(before.map((r) => r.status)).toEqual(Array(EDGE_MAX).fill(200));
    // Well under half a window has passed: at most one request's worth has refilled.
    const passed = after.filter((r) => r.status === 200).length;
    expect(passed).toBeLessThanOrEqual(1);
    expect(after.find((r) => r.status === 429)?.headers.get('retry-after')).toMatch(/^[12]$/);
  });
});

describe('the per-address limit', () => {
  const ADDRESS_MAX = 5;
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ worker: false, env: { RATE_LIMIT_ADDRESS_MAX: String(ADDRESS_MAX), RATE_LIMIT_WINDOW_SECONDS: '3600' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('limits requests that fail authentication, before their credentials are looked up', async () => {
    const ctx = limited.context();
    const { account } = await signUp(ctx, `user-${randomUUID()}@example.test`, 'correct horse battery staple');
    const { token, id } = await createToken(ctx, account.userId, { name: 'address', scope: 'read' });
    for (let i = 0; i < ADDRESS_MAX; i++) {
      expectProblem(await api(limited).GET('/api/me', { headers: { authorization: `Bearer ${generateToken()}` } }), 401, 'unauthenticated');
    }
    const countedBefore = await refusalsCounted('address');
    const refused = await api(limited).GET('/api/me', { headers: { authorization: `Bearer ${generateToken()}` } });
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.body.limit).toBe('address');
    expect(await refusalsCounted('address')).toBe(countedBefore + 1);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Also a good token from that address: it is refused without being looked up (its use is not recorded).
    expectProblem(await api(limited, { token }).GET('/api/me'), 429, 'rate_limited');
    const [row] = await ctx.em.execute<{ last_used_at: Date | null }[]>(`SELECT last_used_at FROM api_tokens WHERE id = ?`, [id]);
    expect(row!.last_used_at).toBeNull();
    expectProblem(await api(limited, { cookie: 'lcs_session=guessed' }).GET('/api/me'), 429, 'rate_limited');
    // Health checks stay answerable.
    expect((await api(limited).GET('/healthz')).status).toBe(200);
  });
});

describe('behind a trusted proxy', () => {
  const ADDRESS_MAX = 3;
  let proxied: Stack;
  beforeAll(async () => {
    proxied = await startStack({
      worker: false,
      env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_ADDRESS_MAX: String(ADDRESS_MAX), RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it('the client is the right-most X-Forwarded-For entry the proxy added, not one the client wrote', async () => {
    // A client that writes a new left-most entry into each request must still be counted as itself.
    const spoofed = (client: string) => ({ headers: { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}, ${client}` } });
    for (let i = 0; i < ADDRESS_MAX; i++) expect((await api(proxied).GET('/api/languages', spoofed('198.51.100.7'))).status).toBe(200);
    expectProblem(await api(proxied).GET('/api/languages', spoofed('198.51.100.7')), 429, 'rate_limited');
    // Another client behind the same proxy has a budget of its own.
    expect((await api(proxied).GET('/api/languages', spoofed('198.51.100.8'))).status).toBe(200);
  });
});
