import { RETENTION_DEFAULTS } from '../../config.ts';
import { DRAFT_PROMPT_MAX, IDEMPOTENCY_KEY_MAX } from '../../domain/limits.ts';

export const draftsReference = `## Output Flow (drafts: POST /api/work)
An optional helper for when you explicitly want generated English; it is not part of capture and never
creates cards. Body \`{ prompt, tone?, useLibrary? }\`: \`prompt\` is what you want to say, 1–${DRAFT_PROMPT_MAX.toLocaleString('en')}
characters (Unicode code points, after trimming) in any language; \`tone\` is \`neutral\` (default),
\`formal\` or \`casual\`; with \`useLibrary: true\` the model is offered your 100 newest ready cards (their
English — the corrected text where preparation corrected it) and may weave them in.
→ 200 \`{ english, notes[], usedCardIds[], creditsCharged }\`: \`notes\` are short remarks in your native
language; \`usedCardIds\` lists the offered cards the draft uses (only ids that were offered, each once);
\`creditsCharged\` is what this call took from the balance.
- Charged 100 × the provider's cost (\`ceil(cost × 100 × 1000)\` credits, kind \`work\`).
- 402 \`insufficient_credits\` before any model call when the balance is 0; 428 until both languages are set.
- Optional \`Idempotency-Key\` header (1–${IDEMPOTENCY_KEY_MAX} of \`A-Z a-z 0-9 . _ : -\`): a repeat of the same request under the
  same key returns the first draft again, with \`creditsCharged: 0\` and no new model call; a different body under
  a used key → 422 \`request_id_reused\`. Without it every request is drafted and charged. A key is remembered
  for ${RETENTION_DEFAULTS.idempotencyHours} hours after its draft (by default; operators set \`RETENTION_IDEMPOTENCY_HOURS\`); after that it is a new request.
- The model's answer is validated: unreadable or off-schema → 502 \`provider_output_invalid\`; no
  endpoint with zero data retention → 503 \`privacy_routing_unavailable\`; provider down → 503.`;
