import type { z } from 'zod';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import { normaliseExpression } from '../../domain/normalise.ts';
import type { FeatureContext } from '../context.ts';
import type { knownExpressionSchema } from './schemas.ts';

/**
 * The learner's card texts, normalised (src/domain/normalise.ts), for clients that mark what the
 * learner already knows on a page they read: the browser extension matches them against the page
 * in the browser, so the page's text never reaches the service. An ETag makes a repeat free: a
 * client that sends it back in `If-None-Match` gets 304 and no body until the library changes.
 */

/** What identifies a version of the user's cards (their ETag): any capture, preparation, retry or delete changes one of these. */
export async function libraryVersion(ctx: FeatureContext, userId: string): Promise<string> {
  const row = await firstRow<{ n: number; last: string }>(
    ctx.em,
    sql`SELECT count(*)::int AS n, coalesce((extract(epoch FROM max(updated_at)) * 1000000)::bigint, 0)::text AS last FROM cards WHERE user_id = ${userId}`,
  );
  return `"ke1-${row!.n}-${row!.last}"`;
}

/** One entry per card, and one more when preparation corrected its text. */
export async function knownExpressions(ctx: FeatureContext, userId: string): Promise<z.input<typeof knownExpressionSchema>[]> {
  const rows = await allRows<{ id: string; key: string; corrected: string | null; translation: string | null }>(
    ctx.em,
    sql`SELECT id, normalised_key AS key, enrichment ->> 'correctedText' AS corrected, enrichment ->> 'translation' AS translation
     FROM cards WHERE user_id = ${userId} ORDER BY created_at, id`,
  );
  return rows.flatMap(({ id, key, corrected, translation }) => {
    const correctedKey = corrected ? normaliseExpression(corrected) : key;
    const texts = correctedKey === key ? [key] : [key, correctedKey];
    return texts.map((text) => ({ cardId: id, text, translation }));
  });
}
