import { z } from 'zod';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import { normaliseExpression } from '../../domain/normalise.ts';
import { defineOperation, restParts } from '../../http/operation.ts';

/**
 * The learner's card texts, normalised (src/domain/normalise.ts), for clients that mark what the
 * learner already knows on a page they read: the browser extension matches them against the page
 * in the browser, so the page's text never reaches the service. An ETag makes a repeat free: a
 * client that sends it back in `If-None-Match` gets 304 and no body until the library changes.
 */

const expressionSchema = z.object({
  cardId: z.uuid(),
  text: z.string().meta({ description: 'The expression normalised as captures are deduplicated (NFC, case-folded, whitespace collapsed, trailing punctuation dropped).' }),
  translation: z.string().nullable().meta({ description: 'The card’s translation; null until its preparation is ready.' }),
});

const knownExpressionsSchema = z.object({
  etag: z.string().meta({ description: 'The same value as the ETag header.' }),
  expressions: z.array(expressionSchema).meta({ description: 'One entry per card, and one more when preparation corrected its text.' }),
});

const inputSchema = z.object({ ifNoneMatch: z.string().optional() });

/** What identifies a version of the user's cards: any capture, preparation, retry or delete changes one of these. */
async function libraryVersion(em: Em, userId: string): Promise<string> {
  const row = await firstRow<{ n: number; last: string }>(em,
    sql`SELECT count(*)::int AS n, coalesce((extract(epoch FROM max(updated_at)) * 1000000)::bigint, 0)::text AS last FROM cards WHERE user_id = ${userId}`,
  );
  return `"ke1-${row!.n}-${row!.last}"`;
}

async function knownExpressions(em: Em, userId: string): Promise<z.input<typeof expressionSchema>[]> {
  const rows = await allRows<{ id: string; key: string; corrected: string | null; translation: string | null }>(em,
    sql`SELECT id, normalised_key AS key, enrichment ->> 'correctedText' AS corrected, enrichment ->> 'translation' AS translation
     FROM cards WHERE user_id = ${userId} ORDER BY created_at, id`,
  );
  return rows.flatMap(({ id, key, corrected, translation }) => {
    const correctedKey = corrected ? normaliseExpression(corrected) : key;
    const texts = correctedKey === key ? [key] : [key, correctedKey];
    return texts.map((text) => ({ cardId: id, text, translation }));
  });
}

/** Whether an `If-None-Match` value names this ETag (a list, `*`, or a weak form of it). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()));

export const knownExpressionsOperation = defineOperation({
  tag: 'library', summary: 'The learner’s card texts, normalised, for marking known expressions on a page', auth: 'read',
  input: inputSchema, output: knownExpressionsSchema,
  rest: {
    method: 'GET', path: '/api/library/known-expressions',
    description: 'Send the ETag back in `If-None-Match`: while the library is unchanged the answer is 304 with no body.',
    input: restParts({
      headers: z.object({ 'if-none-match': z.string().optional() }),
      toInput: ({ headers }) => ({ ifNoneMatch: headers['if-none-match'] }),
    }),
    responses: { 200: knownExpressionsSchema, 304: z.null().meta({ description: 'Not modified: the ETag sent is current.' }) },
    status: ({ etag }, { ifNoneMatch }) => (matches(ifNoneMatch, etag) ? 304 : 200),
    // private: one learner's list, never for a shared cache; no-cache: revalidate every time.
    headers: ({ etag }): Record<string, string> => ({ etag, 'cache-control': 'private, no-cache' }),
  },
  handler: async ({ em, principal }, { ifNoneMatch }) => {
    const etag = await libraryVersion(em, principal.userId);
    if (matches(ifNoneMatch, etag)) return { etag, expressions: [] };
    return { etag, expressions: await knownExpressions(em, principal.userId) };
  },
});
