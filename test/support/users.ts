import { randomUUID } from 'node:crypto';
import type { operations } from '../../clients/rest/schema.d.ts';
import { api, bodyOf, expectStatus, type Target } from './api.ts';

type Languages = operations['account.setLanguages']['requestBody']['content']['application/json'];

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  cookie: string;
  /** A write-scope personal token. */
  token: string;
}

/** Signs up a fresh user through the API, sets languages (unless told not to) and mints a write token. */
export async function newUser(target: Target, options: { languages?: Languages | null } = {}): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.test`;
  const password = 'correct horse battery staple';
  const signup = await api(target).POST('/api/auth/signup', { body: { email, password } });
  expectStatus(signup, 201);
  const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
  const languages = options.languages === undefined ? ({ targetLanguage: 'en', nativeLanguage: 'fr' } satisfies Languages) : options.languages;
  if (languages) expectStatus(await api(target, { cookie }).PUT('/api/settings/language', { body: languages }), 200);
  const minted = await mintToken(target, cookie, { name: 'test', scope: 'write' });
  return { userId: signup.body.userId, email, password, cookie, token: minted.token };
}

/** Mints a personal token in the page session `cookie` (a token cannot mint tokens). */
export async function mintToken(target: Target, cookie: string, input: { scope: 'read' | 'write'; expiresInDays?: number; name?: string }) {
  return bodyOf(await api(target, { cookie }).POST('/api/tokens', { body: { name: input.name ?? `${input.scope} token`, ...input } }), 201);
}

/** The user's credit balance, read through the API as a client would. */
export async function balanceOf(target: Target, user: Pick<TestUser, 'token'>): Promise<number> {
  return bodyOf(await api(target, { token: user.token }).GET('/api/credits'), 200).balance;
}
