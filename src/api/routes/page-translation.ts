import { PAGE_TRANSLATION_LIMITS } from '../../domain/translation-request.ts';
import { translatePage } from '../../services/page-translation.ts';
import type { App, AppDeps } from '../deps.ts';
import { requirePrincipal } from '../plugins/auth.ts';
import { AUTHED, problems } from '../schemas/common.ts';
import { pageTranslationRequestSchema, pageTranslationResponseSchema } from '../schemas/page-translation.ts';

export async function pageTranslationRoutes(app: App, deps: AppDeps) {
  app.post('/api/immersive-translate', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: {
      tags: ['page translation'],
      summary: 'Translate a batch of page text',
      description: 'Idempotent per `request_id`: a repeat returns the stored answer with `Idempotent-Replayed: true` and is not charged.',
      body: pageTranslationRequestSchema,
      response: { 200: pageTranslationResponseSchema, ...problems(...AUTHED, 402, 409, 422, 428, 502, 503) },
    },
  }, async (request, reply) => {
    const { response, replayed } = await translatePage(deps, requirePrincipal(request).userId, request.body);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return response;
  });
}

const L = PAGE_TRANSLATION_LIMITS;

export const pageTranslationReference = `## Page translation (\`POST /api/immersive-translate\`)
Body \`{ request_id, target_language, source_language, items: [{ id, text }] }\` → 200
\`{ request_id, target_language, items: [{ id, text, detected_source_language }], credits_charged }\`, items in
request order with their ids. \`detected_source_language\` is the model's detection when \`source_language\` is
\`auto\` (\`und\` when unknown), else the given source.

**Limits** (each a 400 \`invalid_request\` whose \`errors[].path\` names the field): 1..${L.maxItems} items; ids
non-empty and unique within the request; item text summed over the request ≤ ${L.maxTotalCodePoints.toLocaleString('en')} characters, counted as
Unicode code points (an emoji is one); \`request_id\` 1..128 characters of \`A-Z a-z 0-9 . _ : -\`; languages from
\`GET /api/languages\` (case-insensitive, answered in canonical spelling), \`auto\` only as \`source_language\`.

**Idempotency**: \`request_id\` is an idempotency key per user. The same body again (same languages, ids and texts in
the same order; other fields ignored) returns the stored response, identical to the first one including its
\`credits_charged\`, with the header \`Idempotent-Replayed: true\`, and charges nothing. A different body under a used
\`request_id\` → 422 \`request_id_reused\`. A repeat while the first is still being translated → 409
\`request_in_progress\` (retry shortly). A failed request (provider error, 402) stores nothing, so the same
\`request_id\` can be retried. A request whose process died is retryable after the model timeout has passed.

**Text handling**: each item's text is translated after Unicode NFC and whitespace collapsing; its leading and trailing
whitespace is put back around the translation. Blank items come back unchanged, free. Inline placeholders that page
clients use (\`<b0>…</b0>\`, \`<x1/>\`, \`{0}\`) are kept: a model answer that drops, adds or mis-nests one is rejected
(502 \`provider_output_invalid\`, nothing charged, nothing cached).

**Cache**: translations are cached for all users by normalised text (case matters), language pair, model and prompt
version. Uncached items of a request go to the model in one call (very large requests in a few parallel calls).

**Charging** (kind \`page_translation\`): round(provider cost of the uncached part, 3 decimals, half up) × 3 × 1,000
credits, at least 1 when that cost is positive; \`credits_charged\` is what was taken from the balance. A request
served wholly from the cache costs 0 and is served even with a zero balance; otherwise a zero balance → 402
\`insufficient_credits\` before any model call.`;
