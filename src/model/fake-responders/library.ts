import type { Responder } from '../fake-responders.ts';

/** Issue #3: the fake provider's answers for this area's tasks, keyed by task name. */
export const libraryResponders: Record<string, Responder> = {};
