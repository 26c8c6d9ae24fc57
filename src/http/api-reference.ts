import { libraryReference } from '../features/library/reference.ts';
import { sentencesReference } from '../features/sentences/reference.ts';
import { pageTranslationReference } from '../features/page-translation/reference.ts';
import { replayReference } from '../features/replay/reference.ts';
import { audioReference } from '../features/audio/reference.ts';
import { draftsReference } from '../features/drafts/reference.ts';
import { TOKEN_PREFIX } from '../domain/limits.ts';
import { problemCatalog } from '../domain/problems.ts';

/** Every code of the catalog, in its order, so the reference cannot drift from it. */
const problemCodeList = Object.entries(problemCatalog)
  .map(([code, { status }]) => `\`${code}\` (${status})`)
  .join(', ');

/**
 * The prose part of the API reference (rendered at /docs): the rules the schemas cannot state,
 * written here so that clients can rely on them.
 */
const foundation = `Capture English expressions and sentences, learn them in guided Replay, translate page text.

## Authentication
Send \`Authorization: Bearer ${TOKEN_PREFIX}…\` (a personal token from \`POST /api/tokens\`, shown once) or use the
page session cookie from \`POST /api/auth/login\`. Tokens have the \`read\` scope (GET only; anything else
→ 403 \`read_only_token\`) or the \`write\` scope, an optional expiry, and can be revoked. A token cannot
mint or revoke tokens. Cookie-authenticated writes must carry the service's own \`Origin\` (or a
configured one, such as a browser extension's); \`Origin: null\` never qualifies. Signing in always starts
a fresh session. \`POST /api/auth/logout-everywhere\` ends every session of the account;
\`POST /api/auth/password {currentPassword, newPassword}\` ends every session and continues this one under
a fresh id (a wrong current password → 403 \`wrong_password\`). Both keep personal tokens valid unless
\`revokeTokens: true\`. On https the cookie is \`__Host-lcs_session\`.

## Errors
Every failure is an RFC 9457 \`application/problem+json\` document \`{ type, title, status, detail, code }\`,
plus \`errors: [{ path, message }]\` on 400. \`code\` is stable, one of (with its status): ${problemCodeList}.
A problem that asks you to wait says how long twice: the \`Retry-After\` header and the member \`retryAfterSeconds\`.
Each operation below lists every status it can answer: its own, and those any route can meet (429; 503
\`service_unavailable\` with \`Retry-After\` while the database is away; 400, 413 and 415 on a method that may carry
a body, even where the operation takes none; 401 and 403 where credentials are needed).

## Rate limits
Per user, as token buckets that refill evenly: a general bucket and a tighter one for model-backed routes
(capture, sentences, page translation, drafts, audio; the same for their tRPC procedures). Every
authenticated answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`. Every client
address also has a generous bucket, counted before credentials are looked at; sign-ups have a bucket per
address; wrong passwords make the next login attempt for that account wait (1 s, 2 s, 4 s …, capped). A 429
\`rate_limited\` carries \`Retry-After\` (seconds) and names the \`limit\` that refused it
(\`address\`, \`user\`, \`model\`, \`export\`, \`signup\`, \`login\`, \`streams\`). Library exports have a bucket of
their own and run one per user at a time; live status streams are capped per user and per address.

## Transport
JSON bodies only (anything else → 415), within the body limit (→ 413). \`/trpc\` takes one call per request:
batching is off. A method a path does not serve, whatever its name, → 405 \`method_not_allowed\` with \`Allow\`.
No string may contain U+0000 or an unpaired surrogate (→ 400); unknown members of a body are ignored.

The schemas below state every rule the service checks, except those JSON Schema cannot say, which the
operation's description says instead (item ids unique within a page translation, \`cardId\` of a DELETE in the
query or the body). Clients can generate their types from this document (\`/api/openapi.json\`).

## Credits
1,000 credits = 1 USD. Each period starts at the plan's allowance (free 500, paid 5,000); unused credits
expire. Charges are computed from the provider's own cost with exact decimal arithmetic:
capture preparation and drafts \`ceil(cost × 100 × 1000)\`; audio \`ceil(cost × 5 × 1000)\`; page and
sentence translation \`round(cost, 3 decimals, half up) × 3 × 1000\`; at least 1 credit when the cost is
positive, 0 when it is 0. Each unit of work is charged once, whatever is retried. The balance never goes
below zero: a charge larger than what is left takes the balance to zero and the ledger records the shortfall.

Before its provider call, each paid unit of work holds its maximum cost (bounded by the request's
\`max_tokens\` and the model's price) or whatever less is available, and is charged its real cost after
it; the rest is released. Available means the balance minus what other work in progress holds
(\`held\` in \`GET /api/credits\`). 402 \`insufficient_credits\` comes only when nothing is available, before
any provider call; the problem carries \`balance\` and \`held\`, so a 402 with \`held\` > 0 clears as soon as
that work finishes. A sentence (sync or async) or an audio generation holds when it is requested, so
an unaffordable one is refused with 402 and not saved, rather than failing later. Holds of a crashed process lapse after a few minutes;
the retry of a sync sentence or page translation that takes over its lease ends them at once.`;

/** Feature areas append their section (e.g. the Replay mask and rating rules) to this list. */
export const apiDescription = [foundation, libraryReference, sentencesReference, pageTranslationReference, replayReference, audioReference, draftsReference]
  .filter(Boolean)
  .join('\n\n');
