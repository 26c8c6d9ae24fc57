import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Http } from './stack.ts';

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  cookie: string;
  /** A write-scope personal token. */
  token: string;
}

/** Signs up a fresh user through the API, sets languages (unless told not to) and mints a write token. */
export async function newUser(http: Http, options: { languages?: { targetLanguage: string; nativeLanguage: string } | null } = {}): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.test`;
  const password = 'correct horse battery staple';
  const signup = await http('POST', '/api/auth/signup', { body: { email, password } });
  expect(signup.status, signup.text).toBe(201);
  const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
  const languages = options.languages === undefined ? { targetLanguage: 'en', nativeLanguage: 'fr' } : options.languages;
  if (languages) {
    const res = await http('PUT', '/api/settings/language', { cookie, body: languages });
    expect(res.status, res.text).toBe(200);
  }
  const minted = await http('POST', '/api/tokens', { cookie, body: { name: 'test', scope: 'write' } });
  expect(minted.status, minted.text).toBe(201);
  return { userId: signup.body.userId, email, password, cookie, token: minted.body.token };
}

/** Asserts an RFC 9457 problem with the given status and code. */
export function expectProblem(res: { status: number; headers: Headers; body: any; text: string }, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
}

/** The user's credit balance, read through the API as a client would. */
export async function balanceOf(http: Http, user: Pick<TestUser, 'token'>): Promise<number> {
  const res = await http('GET', '/api/credits', { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body.balance;
}
