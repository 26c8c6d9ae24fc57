import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DriverException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.ts';
import type { App } from '../../../src/http/deps.ts';
import { createModelClient } from '../../../src/model/model-client.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { withOneCharChanged } from '../../support/helpers.ts';
import { AppError } from '../../../src/domain/problems.ts';
import { api, expectStatus, rawHttp, type Target } from '../../support/api.ts';

let stack: Stack;
let app: App;
/** This file's own app, whose log lines the tests read. */
let logged: Target;
const lines: string[] = [];

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const deps = { config: stack.config, orm: stack.orm, temporal: stack.temporal, model: createModelClient(stack.config.model) };
  app = await buildApp(deps, {
    logger: {
      level: 'info',
      stream: {
        write: (line: string) => {
          lines.push(line);
        },
      },
    },
  });
  // A database error as the driver reports it: PostgreSQL quotes the offending values.
  app.get('/test/database-failure', { config: { auth: 'public' }, schema: { hide: true } }, async (request) => {
    const quoted = String((request.query as { q?: string }).q);
    throw new DriverException(
      Object.assign(new Error(`invalid input syntax for type uuid: "${quoted}"`), {
        code: '22P02',
        detail: `Key (text)=(${quoted}) already exists.`,
        where: `unnamed portal parameter $1 = '${quoted}'`,
        routine: 'string_to_uuid',
      }),
    );
  });
  // What an open breaker answers for the provider: a catalog 503 with when to come back.
  app.get('/test/provider-down', { config: { auth: 'public' }, schema: { hide: true } }, async () => {
    throw new AppError('service_unavailable', 'The language model is unavailable right now.', {}, { retryAfterSeconds: 5 });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  logged = { baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

describe('request logs', () => {
  it('carry method, route and status, and never user text or secrets', async () => {
    const email = `Secret.Person-${randomUUID()}@example.test`;
    const password = `pw-${randomUUID()}`;
    const origin = stack.baseUrl; // an allowed origin for cookie writes
    const signup = await api(logged).POST('/api/auth/signup', { body: { email, password } });
    expectStatus(signup, 201);
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const sessionId = cookie.split('=')[1]!;
    expect((await api(logged).POST('/api/auth/login', { body: { email, password } })).status).toBe(200);
    expect((await api(logged).POST('/api/auth/login', { body: { email, password: `${password}-wrong` } })).status).toBe(401);
    expect((await api(logged).POST('/api/auth/signup', { body: { email, password: 'short' } })).status).toBe(400);
    // Raw: malformed JSON, a query parameter the document does not list, and tRPC.
    expect(
      (
        await rawHttp(logged, 'POST', '/api/auth/login', {
          rawBody: `{"email":"${email}","password":"${password}"`,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await api(logged, { cookie, origin }).PUT('/api/settings/language', { body: { targetLanguage: 'en', nativeLanguage: 'fr' } })).status).toBe(200);
    const minted = await api(logged, { cookie, origin }).POST('/api/tokens', { body: { name: `name-${password}`, scope: 'write' } });
    expectStatus(minted, 201);
    const token: string = minted.body.token;
    expect((await api(logged, { token }).GET('/api/me')).status).toBe(200);
    expect((await rawHttp(logged, 'GET', `/api/credits/ledger?cursor=abc&note=${encodeURIComponent(password)}`, { token })).status).toBe(400);
    expect((await api(logged, { token: withOneCharChanged(token) }).GET('/api/me')).status).toBe(401);
    expect(
      (await rawHttp(logged, 'GET', `/trpc/credits.ledger?input=${encodeURIComponent(JSON.stringify({ limit: 5, cursor: password }))}`, { cookie })).status,
    ).toBe(400);
    expect((await api(logged, { cookie }).GET('/api/tokens')).status).toBe(200);

    await expect.poll(() => lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(12);
    const entries = lines.map((l) => JSON.parse(l));
    const requests = entries.filter((e) => e.msg === 'request');
    expect(requests).toContainEqual(expect.objectContaining({ method: 'POST', route: '/api/auth/signup', status: 201, ms: expect.any(Number) }));
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', route: '/api/me', status: 401 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', route: '/api/me', status: 200, user: expect.any(String) }));

    const text = lines.join('\n');
    for (const secret of [password, email, email.toLowerCase(), email.split('@')[0]!, token, token.slice(4, 47), sessionId]) {
      expect(text, `the logs contain ${secret}`).not.toContain(secret);
    }
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('cookie');
  });

  it('of a database failure keep its class and SQLSTATE but not the values it quotes', async () => {
    const secret = `private-words-${randomUUID()}`;
    const res = await rawHttp(logged, 'GET', `/test/database-failure?q=${secret}`, { expected5xx: [500] });
    expectStatus(res, 500);
    await expect.poll(() => lines.some((l) => l.includes('"msg":"request failed"'))).toBe(true);
    const failure = lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'request failed');
    expect(failure.err).toMatchObject({ type: 'DriverException', code: '22P02', routine: 'string_to_uuid', stack: expect.stringContaining('at ') });
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('of a provider outage are a warning with the problem code, not an error with a stack: the client was told when to come back', async () => {
    const res = await rawHttp(logged, 'GET', '/test/provider-down', { expected5xx: [503] });
    expectStatus(res, 503);
    await expect.poll(() => lines.some((l) => l.includes('"msg":"request answered with a server-side problem"'))).toBe(true);
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'request answered with a server-side problem');
    expect(entry).toMatchObject({ level: 40, code: 'service_unavailable', status: 503 });
    expect(entry.err).toBeUndefined();
  });
});
