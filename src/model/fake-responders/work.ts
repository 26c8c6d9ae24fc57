import type { Responder } from '../fake-responders.ts';

/** Issue #5: the fake provider's answers for this area's tasks, keyed by task name. */
export const workResponders: Record<string, Responder> = {};
