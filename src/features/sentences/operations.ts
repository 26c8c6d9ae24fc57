import { listSentences, submitSentence } from './service.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { z } from 'zod';
import { AUTHED, problemResponse, problems, problemSchema } from '../../http/problem-responses.ts';
import {
  createSentenceQuerySchema, createSentenceSchema, listSentencesQuerySchema, SENTENCE_MAX_CHARS, SENTENCES_MAX_PAGE_SIZE,
  sentenceEnvelopeSchema, sentencePageSchema,
} from './schemas.ts';

const translationFailedSchema = problemSchema.extend({
  sentenceId: z.string().optional().meta({ description: 'The saved sentence, now with status "failed"; post it again to retry.' }),
});

export async function sentenceRoutes(app: App, deps: AppDeps) {
  app.post('/api/sentences', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: {
      tags: ['sentences'],
      summary: 'Save a sentence and translate it into your native language',
      description: 'Sync by default (200 with the translation). Async (202, status "pending") only with both `?mode=async` and `X-Service-Async: 1`.',
      querystring: createSentenceQuerySchema,
      body: createSentenceSchema,
      response: {
        200: sentenceEnvelopeSchema,
        202: sentenceEnvelopeSchema,
        ...problems(...AUTHED, 402, 428),
        // Extended to document the members these problems add (existingId, sentenceId).
        409: problemResponse(problemSchema.extend({ existingId: z.string().nullable().optional() })),
        502: problemResponse(translationFailedSchema),
        503: problemResponse(translationFailedSchema),
      },
    },
  }, async (request, reply) => {
    const async = request.query.mode === 'async' && request.headers['x-service-async'] === '1';
    const sentence = await submitSentence(
      { ...deps, logger: request.log },
      { userId: requirePrincipal(request).userId, nativeLanguage: request.languages!.nativeLanguage, text: request.body.original_text, mode: async ? 'async' : 'sync' },
    );
    return reply.code(async ? 202 : 200).send({ sentence });
  });

  app.get('/api/sentences', {
    schema: {
      tags: ['sentences'],
      summary: 'Your sentences, newest first',
      querystring: listSentencesQuerySchema,
      response: { 200: sentencePageSchema, ...problems(...AUTHED) },
    },
  }, async (request) => listSentences(deps.orm.em.fork(), requirePrincipal(request).userId, request.query.page, request.query.pageSize));
}

export const sentencesReference = `## Sentences (\`/api/sentences\`)
\`POST /api/sentences {original_text}\` saves a sentence and translates it into your account's native language.
\`original_text\` is trimmed, whitespace runs collapse to one space (NFC), and it must then be 1..${SENTENCE_MAX_CHARS}
characters (Unicode code points). A sentence is \`{ id, original_text, translation | null, status, native_language, created_at }\`
with \`status\` \`pending\` → \`translated\` or \`failed\`.

- **Sync mode** (the default): 200 \`{ sentence }\` with the translation. If the translation fails, the answer is the
  provider's problem (502 \`provider_output_invalid\`, 503 \`privacy_routing_unavailable\` or \`service_unavailable\`) with
  a \`sentenceId\` member: the sentence stays saved with status \`failed\` and nothing is charged.
- **Async mode**, for batch uploads: only when **both** \`?mode=async\` and the header \`X-Service-Async: 1\` are sent
  (either alone means sync). 202 \`{ sentence }\` with status \`pending\` at once; the translation runs in the
  background and ends \`translated\` or \`failed\`: invalid output or refused routing fail at once, a provider outage
  is retried for about 15 s, an outage of the service's own database or Temporal for about 9.5 minutes. Poll
  \`GET /api/sentences\`.
- **Duplicates**: the same sentence again (same normalisation as library cards: case, Unicode form, whitespace,
  quote style and trailing punctuation ignored) → 409 \`duplicate_sentence\` with \`existingId\`, also when identical
  posts race. Exception: a sentence whose translation **failed** is translated again when posted again (same id,
  200 or 202 as above); this is how a failed sentence is retried. So is a sync sentence left \`pending\` by a
  process that died mid-translation: its translation is held under a lease renewed every 2 s, and once the lease
  lapses (within 8 s) the next post translates it (same id, charged once); until then it is a 409.
- 402 \`insufficient_credits\` when the balance is zero (checked before anything is saved or sent to the model);
  428 until both languages are set.
- **Charging** (kind \`sentence_translation\`): round(provider cost, 3 decimals, half up) × 3 × 1,000 credits,
  at least 1 when the cost is positive; once per translation attempt, only when it succeeds.

\`GET /api/sentences?page=1&pageSize=20\` → \`{ items, page, pageSize, total }\`, newest first. \`page\` ≥ 1 (default 1),
\`pageSize\` 1..${SENTENCES_MAX_PAGE_SIZE} (default 20); anything else → 400. A page past the end has \`items: []\`.`;
