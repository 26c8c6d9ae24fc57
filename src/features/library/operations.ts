import { z } from 'zod';
import { decodeCursor } from '../../domain/library-listing.ts';
import { CARD_PREPARATION_BUDGET } from '../../domain/preparation-budget.ts';
import { AppError } from '../../domain/problems.ts';
import { captureCard, deleteCard, getCardForUser, listCards, preparationDispatch, refreshEnrichment } from './service.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';
import {
  capturedSchema, captureSchema, cardDetailSchema, cardIdSchema, deleteBodySchema, deleteQuerySchema,
  listQuerySchema, listSchema, refreshSchema, reusedSchema,
} from './schemas.ts';

export async function libraryRoutes(app: App, deps: AppDeps) {
  const { orm } = deps;

  app.post('/api/library', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: {
      tags: ['library'],
      summary: 'Capture an expression (preparation follows in the background)',
      body: captureSchema,
      response: { 202: capturedSchema, 200: reusedSchema, ...problems(...AUTHED, 428) },
    },
  }, async (request, reply) => {
    const { card, reused } = await captureCard(orm.em.fork(), preparationDispatch(deps, request.log), requirePrincipal(request).userId, request.body.text);
    return reused ? reply.code(200).send({ card, reused: true as const }) : reply.code(202).send({ card });
  });

  app.get('/api/library', {
    schema: { tags: ['library'], summary: 'List and search the library, newest first', querystring: listQuerySchema, response: { 200: listSchema, ...problems(...AUTHED) } },
  }, async (request) => listCards(orm.em.fork(), requirePrincipal(request).userId, {
    query: request.query.query,
    cursor: request.query.cursor ? decodeCursor(request.query.cursor) : null,
    limit: request.query.limit,
  }));

  app.get('/api/library/:cardId', {
    schema: { tags: ['library'], summary: 'One card with its scheduling', params: z.object({ cardId: cardIdSchema }), response: { 200: z.object({ card: cardDetailSchema }), ...problems(...AUTHED, 404) } },
  }, async (request) => ({ card: await getCardForUser(orm.em.fork(), requirePrincipal(request).userId, request.params.cardId) }));

  app.patch('/api/library', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: { tags: ['library'], summary: 'Prepare a failed card again', body: refreshSchema, response: { 202: capturedSchema, ...problems(...AUTHED, 404, 409, 428) } },
  }, async (request, reply) => {
    const card = await refreshEnrichment(orm.em.fork(), preparationDispatch(deps, request.log), requirePrincipal(request).userId, request.body.cardId);
    return reply.code(202).send({ card });
  });

  app.delete('/api/library', {
    schema: {
      tags: ['library'],
      summary: 'Delete a card and its learning data (`?cardId=` or JSON body `{cardId}`)',
      querystring: deleteQuerySchema,
      body: deleteBodySchema,
      response: { 204: z.null(), ...problems(...AUTHED, 404) },
    },
  }, async (request, reply) => {
    const cardId = cardIdFrom(request.query.cardId, request.body?.cardId);
    await deleteCard(orm.em.fork(), preparationDispatch(deps, request.log), requirePrincipal(request).userId, cardId);
    return reply.code(204).send(null);
  });
}

function cardIdFrom(fromQuery: string | undefined, fromBody: string | undefined): string {
  if (fromQuery && fromBody && fromQuery !== fromBody) {
    throw new AppError('invalid_request', 'cardId is given twice with different values.', { errors: [{ path: 'cardId', message: 'query and body disagree' }] });
  }
  const cardId = fromQuery ?? fromBody;
  if (!cardId) throw new AppError('invalid_request', 'Say which card: ?cardId= or a JSON body {"cardId": …}.', { errors: [{ path: 'cardId', message: 'required' }] });
  return cardId;
}

export const libraryReference = `## Library (cards)
A card is one captured English expression: \`{ cardId, text, enrichmentStatus, createdAt, enrichment, enrichmentError? }\`.

**Capture** — \`POST /api/library {text}\`. \`text\` is trimmed, whitespace runs collapse to one space (NFC); it must
then be 1..280 characters (Unicode code points) and contain a letter, else 400. Needs both languages set (else 428).
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
failed validation. A model provider that cannot serve the call (unreachable, 5xx, 429) is retried for about 15 s
(five attempts) before the card fails \`service_unavailable\`; an outage of the service's own database or Temporal is
waited out for about 9.5 minutes, and the card then ends \`ready\` as if nothing happened. The provider spend per card is
bounded: a card makes at most ${CARD_PREPARATION_BUDGET.modelCalls} answered model calls over its whole life, every
retry and refresh together (calls the provider could not serve do not count). Within one preparation an invalid
answer is asked again once, and not at all when the model refused or its answer was cut off at its length limit: those
do not get better by asking again. Once the budget is spent a refresh fails at once with \`provider_output_invalid\`
without calling the model; delete the card and capture it again to start over.

**Charging** — a ready preparation is charged once: \`ceil(provider cost × 100 × 1000)\` credits (kind
\`capture_preparation\`, ref = cardId). A failed preparation costs nothing; retries never charge twice.

**List and search** — \`GET /api/library?query=&cursor=&limit=\` → \`{ items: card[], nextCursor }\`, newest first;
\`limit\` 1..200 (default 50); \`nextCursor\` is opaque (null on the last page). \`query\` matches a substring of the
text or the translation, case- and accent-insensitively. \`GET /api/library/{cardId}\` → \`{ card }\` with
\`scheduling: { state, due, reps, lapses, stability, lastReview }\`.

**Refresh** — \`PATCH /api/library {cardId, action: "refresh_enrichment"}\` → 202 \`{ card }\` (pending again, same
cardId; scheduling and review history untouched). Only a failed card: pending or ready → 409 \`conflict\`. Any other
action → 400.

**Delete** — \`DELETE /api/library?cardId=\` (or a JSON body \`{cardId}\`) → 204. Removes the card and its learning
data (scheduling, reviews, replay items, audio links); a preparation in flight is cancelled and never writes the card
back nor charges. Capturing the same text later creates a fresh card with a new cardId. Unknown or another user's
card → 404.`;
