import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { newUser, type TestUser } from './users.ts';

export interface Started {
  stack: Stack;
  user: TestUser;
}

/**
 * The prelude of an integration file: its own stack, started before its tests and closed after
 * them; one user with both languages set and a write token; the fake model provider reset before
 * each test, and priced at `fakeCost` USD per call when given. `bind` receives them once started
 * (`({ stack, user } = started)`), so that the file's tests read them as plain variables.
 */
export function useStack(bind: (started: Started) => void, options: Parameters<typeof startStack>[0] & { fakeCost?: string } = {}) {
  let started: Started | undefined;
  beforeAll(async () => {
    const stack = await startStack(options);
    started = { stack, user: await newUser(stack) };
    bind(started);
  });
  afterAll(async () => {
    await started?.stack.close();
  });
  beforeEach(() => {
    started!.stack.fake.reset();
    if (options.fakeCost) started!.stack.fake.setCost(options.fakeCost);
  });
}
