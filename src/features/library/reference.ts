import { CARD_PREPARATION_BUDGET } from './preparation-rules.ts';
import { CAPTURE_TEXT_MAX, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../domain/limits.ts';

export const libraryReference = `## Library (cards)
A card is one captured English expression: \`{ cardId, text, enrichmentStatus, createdAt, enrichment, enrichmentError?, enrichmentWaiting? }\`.

**Capture** — \`POST /api/library {text}\`. \`text\` is trimmed, whitespace runs collapse to one space (NFC); it must
then be 1..${CAPTURE_TEXT_MAX} characters (Unicode code points) and contain a letter, else 400. Needs both languages set (else 428).
A new expression answers **202** \`{ card }\` at once: the card is already in the library and in the learning queue
(its scheduling exists, due now); \`enrichmentStatus\` is \`pending\` and \`enrichment\` null. The answer never waits
for the model. Capturing never answers 402: with no credits left the card is still saved and its preparation fails
with \`insufficient_credits\`.

**Reuse** — the same expression again answers **200** \`{ card, reused: true }\` with the existing card, never a
second one (also under concurrent identical captures). "Same" compares a normalised key: Unicode NFC, case-folded,
whitespace collapsed, typographic quotes unified, invisible characters and trailing punctuation ignored
(\`"Break a leg!"\` ≡ \`" break  a LEG"\`). The stored text stays as first captured.

**Statuses** — \`pending\` → \`ready\` (the \`enrichment\` is set) or \`pending\` → \`failed\` (\`enrichmentError:
{ code, message }\` is set); \`failed\` → \`pending\` by a refresh. Preparation is one validated model call that yields,
in the account's native language: \`translation\`; \`correctedText\` only for a high-confidence surface error
(spelling, capitalisation, punctuation, agreement) with a short \`correctionNote\`, otherwise both null;
\`usage: { register, guidance, examples[1..3] }\`; \`focuses: [{ kind, note }]\` (1..3). Failure codes:
\`insufficient_credits\`, \`provider_output_invalid\`, \`privacy_routing_unavailable\`, \`service_unavailable\`,
\`internal_error\`.

**Retries and the retry budget** — a verdict fails the card at once: no credits, privacy routing refused, output that
failed validation. A model provider that cannot serve the call (unreachable, 5xx, 429) is waited out for at least
30 minutes (backoff up to 2 minutes, with jitter) before the card fails \`service_unavailable\`; meanwhile the card
stays \`pending\` with \`enrichmentWaiting: { code: "service_unavailable", message: "Waiting for the language model",
since }\`, and is prepared by itself once the provider is back. An outage of the service's own database or Temporal is
waited out for about 9.5 minutes, and the card then ends \`ready\` as if nothing happened. The provider spend per card is
bounded: a card makes at most ${CARD_PREPARATION_BUDGET.modelCalls} answered model calls over its whole life, every
retry and refresh together (calls the provider could not serve do not count). Within one preparation an invalid
answer is asked again once, and not at all when the model refused or its answer was cut off at its length limit: those
do not get better by asking again. Once the budget is spent a refresh fails at once with \`provider_output_invalid\`
without calling the model; delete the card and capture it again to start over.

**Charging** — a ready preparation is charged once: \`ceil(provider cost × 100 × 1000)\` credits (kind
\`capture_preparation\`, ref = cardId). A failed preparation costs nothing; retries never charge twice.

**List and search** — \`GET /api/library?query=&cursor=&limit=\` → \`{ items: card[], nextCursor }\`, newest first;
\`limit\` 1..${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT}); \`nextCursor\` is opaque (null on the last page). \`query\` matches a substring of the
text or the translation, case- and accent-insensitively. \`GET /api/library/{cardId}\` → \`{ card }\` with
\`scheduling: { state, due, reps, lapses, stability, lastReview }\`.

**Refresh** — \`PATCH /api/library {cardId, action: "refresh_enrichment"}\` → 202 \`{ card }\` (pending again, same
cardId; scheduling and review history untouched). Only a failed card: pending or ready → 409 \`conflict\`. Any other
action → 400.

**Reject a correction** — \`DELETE /api/library/{cardId}/correction\` → 200 \`{ card }\` with \`correctedText\` and
\`correctionNote\` null: the card keeps your text as captured, and Replay (open items included), audio and drafts use
it from then on. A card without a correction is answered unchanged. A pending or failed card → 409 \`conflict\`;
unknown or another user's card → 404.

**Delete** — \`DELETE /api/library?cardId=\` (or a JSON body \`{cardId}\`) → 204. Removes the card and its learning
data (scheduling, reviews, replay items, audio links); a preparation in flight is cancelled and never writes the card
back nor charges. Capturing the same text later creates a fresh card with a new cardId. Unknown or another user's
card → 404.`;
