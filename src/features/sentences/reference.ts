import { SENTENCE_MAX_CHARS, SENTENCES_MAX_PAGE_SIZE, SENTENCES_PAGE_SIZE_DEFAULT } from '../../domain/limits.ts';

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

\`GET /api/sentences?page=1&pageSize=${SENTENCES_PAGE_SIZE_DEFAULT}\` → \`{ items, page, pageSize, total }\`, newest first. \`page\` ≥ 1 (default 1),
\`pageSize\` 1..${SENTENCES_MAX_PAGE_SIZE} (default ${SENTENCES_PAGE_SIZE_DEFAULT}); anything else → 400. A page past the end has \`items: []\`.`;
