import { RETENTION_DEFAULTS } from '../../config.ts';
import { IDEMPOTENCY_KEY_MAX, PAGE_TRANSLATION_LIMITS } from '../../domain/limits.ts';

const L = PAGE_TRANSLATION_LIMITS;

export const pageTranslationReference = `## Page translation (\`POST /api/immersive-translate\`)
Body \`{ request_id, target_language, source_language, items: [{ id, text }] }\` → 200
\`{ request_id, target_language, items: [{ id, text, detected_source_language }], credits_charged }\`, items in
request order with their ids. \`detected_source_language\` is the model's detection when \`source_language\` is
\`auto\` (\`und\` when unknown), else the given source.

**Limits** (each a 400 \`invalid_request\` whose \`errors[].path\` names the field): 1..${L.maxItems} items; ids
non-empty and unique within the request; item text summed over the request ≤ ${L.maxTotalCodePoints.toLocaleString('en')} characters, counted as
Unicode code points (an emoji is one); \`request_id\` 1..${IDEMPOTENCY_KEY_MAX} characters of \`A-Z a-z 0-9 . _ : -\`; languages from
\`GET /api/languages\` (case-insensitive, answered in canonical spelling), \`auto\` only as \`source_language\`.

**Idempotency**: \`request_id\` is an idempotency key per user. The same body again (same languages, ids and texts in
the same order; other fields ignored) returns the stored response, identical to the first one including its
\`credits_charged\`, with the header \`Idempotent-Replayed: true\`, and charges nothing. A different body under a used
\`request_id\` → 422 \`request_id_reused\`. A repeat while the first is still being translated → 409
\`request_in_progress\` (retry shortly). A failed request (provider error, 402) stores no answer, so the same
\`request_id\` can be retried. When one provider call of a request fails while another succeeded, the texts that were
translated are kept in the cache and charged with that failure (its problem document carries \`credits_charged\` and
says so); the retry then translates, and charges, only the rest. A running request is held under a lease its process
renews every 2 s; if that process dies, the lease lapses within 8 s and a retry of the same \`request_id\` takes the
request over (charged once).
A \`request_id\` is remembered for ${RETENTION_DEFAULTS.idempotencyHours} hours after its answer (by default; operators set \`RETENTION_IDEMPOTENCY_HOURS\`).
After that, the same \`request_id\` is a new request: it is translated and charged again.

**Text handling**: each item's text is translated after Unicode NFC and whitespace collapsing; its leading and trailing
whitespace is put back around the translation. Blank items come back unchanged, free. Inline placeholders that page
clients use (\`<b0>…</b0>\`, \`<x1/>\`, \`{0}\`) are kept: a model answer that drops, adds or mis-nests one, or that
carries other markup its source lacked (an HTML tag, comment or declaration, a Markdown link or image), is rejected
(502 \`provider_output_invalid\`, nothing charged, nothing cached).

**Cache**: translations are cached by normalised text (case matters), language pair, model and prompt version, under
one rule: what one user is served can never have been steered by another user's text. A model reads every text of a
call together, so a cached answer serves a request only when every text of the call that produced it was the
requester's own: a call that carried that one text (serves everyone), a call the same user made, or a call whose texts
all appear in this request (a second reader of the same page gets it free). Texts no cached answer may serve go to the
model together (one call; very large requests a few parallel calls). A text that has a cached answer which may not
serve this request (it recurs on other pages or for other users) is translated in a call of its own instead, and that
answer then serves everyone.

**Charging** (kind \`page_translation\`): round(provider cost of the uncached part, 3 decimals, half up) × 3 × 1,000
credits, at least 1 when that cost is positive; \`credits_charged\` is what was taken from the balance. A request
served wholly from the cache costs 0 and is served even with a zero balance; otherwise a zero balance → 402
\`insufficient_credits\` before any model call.`;
