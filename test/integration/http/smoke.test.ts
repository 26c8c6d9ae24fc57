import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { api } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('smoke', () => {
  it('signs up, sets languages, mints a token and reads credits with it', async () => {
    const user = await newUser(stack);
    const me = await api(stack, { token: user.token }).GET('/api/me');
    expect(me.body).toMatchObject({ email: user.email, targetLanguage: 'en', nativeLanguage: 'fr', plan: 'free' });
    const credits = await api(stack, { token: user.token }).GET('/api/credits');
    expect(credits.body).toMatchObject({ balance: 500, plan: 'free', monthlyAllowance: 500 });
    expect((await api(stack).GET('/readyz')).status).toBe(200);
  });
});
