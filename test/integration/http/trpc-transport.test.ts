import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

const BODY_LIMIT = 4096;
let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack({ worker: false, env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  user = await newUser(stack);
});
afterAll(async () => {
  await stack?.close();
});

/**
 * Starts a POST that announces a body of `announced` bytes (1 GB unless told), sends its first
 * `sent` bytes and then stalls, as a slow or hostile client would. Resolves with the answer's
 * status if one comes while the body is still unsent (so the service answered without waiting to
 * read it), or 'no answer' after `waitMs`.
 */
function stalledUpload(
  path: string,
  headers: Record<string, string>,
  { announced = 1024 ** 3, sent = 64 * 1024, waitMs = 3000 } = {},
): Promise<{ status: number | 'no answer'; connection?: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, stack.baseUrl);
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(announced) } });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ status: 'no answer' });
    }, waitMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      resolve({ status: res.statusCode!, connection: res.headers.connection });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.write(Buffer.alloc(sent, 'a'));
  });
}

const multipart = { 'content-type': 'multipart/form-data; boundary=x' };

describe('tRPC transport', () => {
  it('refuses a multipart body with 415 before reading it, signed in or not', async () => {
    expect(await stalledUpload('/trpc/library.capture', multipart)).toEqual({ status: 415, connection: 'close' });
    expect(await stalledUpload('/trpc/library.capture', { ...multipart, authorization: `Bearer ${user.token}` })).toEqual({ status: 415, connection: 'close' });
  });

  it('refuses every body that is not JSON with a 415 problem', async () => {
    for (const type of ['multipart/form-data; boundary=x', 'application/octet-stream', 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await rawHttp(stack, 'POST', '/trpc/library.capture', { token: user.token, rawBody: '--x--', headers: { 'content-type': type } });
      expectProblem(res, 415, 'unsupported_media_type');
    }
    expectProblem(await rawHttp(stack, 'POST', '/trpc/library.capture', { token: user.token, rawBody: '{"text":"no type"}' }), 415, 'unsupported_media_type');
  });

  it('checks who asks before reading a JSON body: an anonymous one is refused unread', async () => {
    // Within the body limit, so only the order of authentication and reading decides.
    const anonymous = await stalledUpload('/trpc/library.capture', { 'content-type': 'application/json' }, { announced: BODY_LIMIT - 1, sent: 100 });
    expect(anonymous).toEqual({ status: 401, connection: 'close' });
    const signedIn = await stalledUpload(
      '/trpc/library.capture',
      { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      { announced: BODY_LIMIT - 1, sent: 100, waitMs: 1000 },
    );
    expect(signedIn.status, 'a signed-in caller’s body is read, so the answer waits for it').toBe('no answer');
  });

  it('applies the body limit to JSON, announced or not', async () => {
    // Announced: refused before reading.
    expect(await stalledUpload('/trpc/library.capture', { 'content-type': 'application/json', authorization: `Bearer ${user.token}` })).toEqual({
      status: 413,
      connection: 'close',
    });
    // Not announced (chunked): refused once the limit is crossed.
    const big = JSON.stringify({ text: 'x'.repeat(BODY_LIMIT) });
    const res = await fetch(`${stack.baseUrl}/trpc/library.capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.data.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('still serves JSON mutations and queries', async () => {
    const res = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', { token: user.token, body: { targetLanguage: 'en', nativeLanguage: 'de' } });
    expectStatus(res, 200);
    expect((await rawHttp(stack, 'GET', '/trpc/account.me', { token: user.token })).body.result.data.nativeLanguage).toBe('de');
  });

  it('does not batch: many calls in one request are refused, not run behind one rate-limit count', async () => {
    // Six wallet reads (Fastify caps a path parameter at 100 characters).
    const paths = Array(6).fill('credits.balance').join(',');
    const res = await rawHttp(stack, 'GET', `/trpc/${paths}?batch=1&input=${encodeURIComponent('{}')}`, { token: user.token });
    expectStatus(res, 400);
    expect(Array.isArray(res.body)).toBe(false);
    expect(res.body.error.message).toMatch(/batching/i);
    const post = await rawHttp(stack, 'POST', `/trpc/library.capture,library.capture?batch=1`, {
      token: user.token,
      body: { 0: { text: 'one' }, 1: { text: 'two' } },
    });
    expectStatus(post, 400);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/library'), 200).items).toEqual([]);
  });
});
