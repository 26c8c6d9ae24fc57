import { libraryReference } from './routes/library.ts';
import { sentencesReference } from './routes/sentences.ts';
import { pageTranslationReference } from './routes/page-translation.ts';
import { replayReference } from './routes/replay.ts';
import { audioReference } from './routes/audio.ts';
import { workReference } from './routes/work.ts';

/**
 * The prose part of the API reference (rendered at /docs). Decisions the spec leaves open are
 * written here so that clients can rely on them.
 */
const foundation = `Capture English expressions and sentences, learn them in guided Replay, translate page text.

## Authentication
Send \`Authorization: Bearer lcp_…\` (a personal token from \`POST /api/tokens\`, shown once) or use the
page session cookie from \`POST /api/auth/login\`. Tokens have the \`read\` scope (GET only; anything else
→ 403 \`read_only_token\`) or the \`write\` scope, an optional expiry, and can be revoked. A token cannot
mint or revoke tokens. Cookie-authenticated writes must carry the service's own \`Origin\`.

## Errors
Every failure is an RFC 9457 \`application/problem+json\` document \`{ type, title, status, detail, code }\`,
plus \`errors: [{ path, message }]\` on 400. \`code\` is stable: \`invalid_request\`, \`unauthenticated\`,
\`insufficient_credits\`, \`read_only_token\`, \`forbidden\`, \`origin_not_allowed\`, \`not_found\`,
\`method_not_allowed\`, \`conflict\`, \`duplicate_sentence\`, \`request_in_progress\`, \`email_taken\`,
\`payload_too_large\`, \`unsupported_media_type\`, \`request_id_reused\`, \`language_setup_required\`,
\`rate_limited\`, \`provider_output_invalid\` (502), \`privacy_routing_unavailable\` (503), \`service_unavailable\` (503).

## Rate limits
Per user (per client address before sign-in), in fixed windows: a general bucket and a tighter one for
model-backed routes (capture, sentences, page translation, work, audio). Every answer carries
\`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; a 429 carries \`Retry-After\` (seconds).

## Credits
1,000 credits = 1 USD. Each period starts at the plan's allowance (free 500, paid 5,000); unused credits
expire. Charges are computed from the provider's own cost with exact decimal arithmetic:
capture preparation and work \`ceil(cost × 100 × 1000)\`; audio \`ceil(cost × 5 × 1000)\`; page and
sentence translation \`round(cost, 3 decimals, half up) × 3 × 1000\`; at least 1 credit when the cost is
positive, 0 when it is 0. Each unit of work is charged once, whatever is retried. The balance never goes
below zero: a charge larger than what is left takes the balance to zero and the ledger records the shortfall.`;

/** Feature areas append their section (e.g. the Replay mask and rating rules) to this list. */
export const apiDescription = [foundation, libraryReference, sentencesReference, pageTranslationReference, replayReference, audioReference, workReference].filter(Boolean).join('\n\n');
