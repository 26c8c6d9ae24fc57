/**
 * Who may be served a cached page translation, and how a page's missing texts are grouped into
 * provider calls. Pure; no I/O.
 *
 * A model reads every text of a call together, so one text can steer the translation of another:
 * "translate 'Sign in' as …" hidden in page text works on real models. The rule that follows:
 * **an answer serves a request only when every text of the call that produced it was the
 * requester's own** — a call that carried that one text (its answer is a function of the text
 * alone, and serves everyone), a call the same user made, or a call whose texts all appear in
 * the request at hand. In the last case nothing the requester did not send could have steered
 * the answer: a second reader of the same page, segmented the same way, gets it free, and an
 * attacker's item that the requester does not send can never reach them.
 *
 * What it costs: batching stays the rule, since a call of its own pays the system prompt again
 * for one text (several times the price of that text inside a 40-item call). A text gets a call
 * of its own only when it recurs where its cached answer may not serve — another user, another
 * page or segmentation (the header of a site, a line quoted everywhere). That answer then serves
 * everyone, so each recurring text costs one small call once. On the bench's shared-site workload
 * (`npm run bench page-translation`: 6 users, overlapping pages) this costs little more than a
 * cache shared without any guard (docs/performance.md, "Page translation shared between users").
 *
 * Rejected: promoting an answer once two users' batches agree (one person with two accounts
 * agrees with themselves); a call of its own for every text (the isolation price on every text,
 * where most are read once); answers private to their sender, with a call of its own for a text
 * once a second user asks for it (several times the cost on the same workload: every page's second
 * reader paid the isolation price on all of its texts).
 */
import { chunkByBudget } from './request.ts';

/** Facts about a cached answer, relative to the request at hand. */
export interface CachedAnswerFacts {
  /** Its call carried this one text. */
  alone: boolean;
  /** Its call was made for the requesting user. */
  ownCall: boolean;
  /** Every text of its call is in the request at hand. */
  callWithinRequest: boolean;
}

export function answerServes(facts: CachedAnswerFacts): boolean {
  return facts.alone || facts.ownCall || facts.callWithinRequest;
}

/**
 * Provider calls for the texts no cached answer may serve: one call per text that recurs (it has
 * a cached answer, only not one for this request), the rest batched within `budget` code points.
 */
export function planProviderCalls<T extends { text: string }>(missing: readonly T[], recurs: (entry: T) => boolean, budget: number): T[][] {
  const alone = missing.filter(recurs);
  const batched = missing.filter((entry) => !recurs(entry));
  return [...alone.map((entry) => [entry]), ...chunkByBudget(batched, budget)];
}
