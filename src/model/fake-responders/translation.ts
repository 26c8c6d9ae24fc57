import type { Responder } from '../fake-responders.ts';

/** Issue #4: the fake provider's answers for this area's tasks, keyed by task name. */
export const translationResponders: Record<string, Responder> = {};
