import { LIST_LIMIT_MAX } from '../../src/domain/limits.ts';
import { cardSchema } from '../../src/features/library/schemas.ts';
import type { Card } from './context.ts';
import type { Api } from './service.ts';

/** The states of a card's preparation (the API's `enrichmentStatus`). */
export const PREPARATION_STATUSES = cardSchema.shape.enrichmentStatus.options;

/**
 * Up to `limit` cards, newest first, matching `query` (the API's search) and `status` (which the
 * API does not filter: pages are read on until enough match or the library ends).
 */
export async function searchLibrary(api: Api, { query, status, limit }: { query?: string; status?: Card['enrichmentStatus']; limit: number }): Promise<Card[]> {
  const items: Card[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.call((c) => c.GET('/api/library', { params: { query: { query, cursor, limit: LIST_LIMIT_MAX } } }));
    items.push(...page.items.filter((card) => !status || card.enrichmentStatus === status));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && items.length < limit);
  return items.slice(0, limit);
}
