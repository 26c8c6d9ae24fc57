import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_RULES } from '../../../src/domain/login-backoff.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, expectProblem } from '../../support/api.ts';

// Two API processes on one database, behind a "proxy" at 127.0.0.1 so that each test speaks from
// client addresses of its own: sign-up and login counts live in the run's shared PostgreSQL.
const SIGNUP_MAX = 2;
const env = { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SIGNUP_MAX: String(SIGNUP_MAX) };
let stack: Stack;
let second: Stack;
beforeAll(async () => {
  [stack, second] = await Promise.all([startStack({ worker: false, env }), startStack({ worker: false, env })]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), second?.close()]);
});

/** A client address no other test uses. */
const newAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
const from = (address: string) => ({ 'x-forwarded-for': address });
const FREE = LOGIN_RULES.accountFromAddress.free;

/**
 * A user signed up from an address of its own: these stacks' tight sign-up bucket must never
 * count 127.0.0.1, which every other test file of the run signs up from.
 */
function signedUpUser(): Promise<TestUser> {
  const address = newAddress();
  return newUser({ baseUrl: stack.baseUrl, headers: from(address) });
}

function login(on: Stack, user: Pick<TestUser, 'email'>, password: string, address: string) {
  return api(on).POST('/api/auth/login', { body: { email: user.email, password }, headers: from(address) });
}

describe('login', () => {
  it('backs off after repeated wrong passwords for one account, across API processes', async () => {
    const user = await signedUpUser();
    const address = newAddress();
    for (let i = 0; i < FREE; i++) expectProblem(await login(i % 2 ? second : stack, user, 'wrong password!', address), 401, 'unauthenticated');
    // Even the right password waits now: the backoff is not an oracle for it.
    const blocked = await login(stack, user, user.password, address);
    expectProblem(blocked, 429, 'rate_limited');
    expect(blocked.body).toMatchObject({ limit: 'login', retryAfterSeconds: 1 });
    expect(blocked.headers.get('retry-after')).toBe('1');
    expectProblem(await login(second, user, user.password, address), 429, 'rate_limited');
    // The owner is not kept out for long: after Retry-After the right password works, and clears the count.
    await sleep(1100);
    expect((await login(second, user, user.password, address)).status).toBe(200);
    expectProblem(await login(stack, user, 'wrong password!', address), 401, 'unauthenticated');
  });

  it('doubles the wait with each further failure', async () => {
    const user = await signedUpUser();
    const address = newAddress();
    for (let i = 0; i < FREE; i++) await login(stack, user, 'wrong password!', address);
    await sleep(1100);
    expectProblem(await login(stack, user, 'wrong password!', address), 401, 'unauthenticated');
    expect((await login(stack, user, user.password, address)).headers.get('retry-after')).toBe('2');
  });

  it('blocks one guessing address, not the owner signing in from another', async () => {
    const user = await signedUpUser();
    const guesser = newAddress();
    for (let i = 0; i < FREE; i++) await login(stack, user, 'wrong password!', guesser);
    expectProblem(await login(stack, user, 'wrong password!', guesser), 429, 'rate_limited');
    expect((await login(stack, user, user.password, newAddress())).status).toBe(200);
  });

  it('counts concurrent guesses: a burst cannot slip past the count', async () => {
    const user = await signedUpUser();
    const address = newAddress();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(i % 2 ? second : stack, user, 'wrong password!', address)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - FREE);
  });
});

describe('sign-up', () => {
  it('has a per-address bucket of its own, shared by every API process', async () => {
    const address = newAddress();
    const signUp = (on: Stack, at: string) =>
      api(on).POST('/api/auth/signup', {
        body: { email: `user-${crypto.randomUUID()}@example.test`, password: 'correct horse battery staple' },
        headers: from(at),
      });
    for (let i = 0; i < SIGNUP_MAX; i++) expect((await signUp(i % 2 ? second : stack, address)).status).toBe(201);
    const refused = await signUp(second, address);
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(SIGNUP_MAX));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect((await signUp(stack, newAddress())).status).toBe(201);
  });
});
