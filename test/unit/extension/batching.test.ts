import { describe, expect, it } from 'vitest';
import { batchRequest, holdsFullBatch, takeBatch } from '../../../extension/src/shared/batching.ts';
import { IDEMPOTENCY_KEY_MAX, PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';

const { maxItems: MAX_ITEMS, maxTotalCodePoints: MAX_CHARS } = PAGE_TRANSLATION_LIMITS;

const languages = { source: 'auto', target: 'fr' } as const;

describe('takeBatch', () => {
  it(`takes at most ${MAX_ITEMS} items`, () => {
    const queue = Array.from({ length: 2 * MAX_ITEMS + 10 }, (_, i) => `paragraph ${i}`);
    expect(takeBatch(queue).batch).toEqual(queue.slice(0, MAX_ITEMS));
    expect(holdsFullBatch(queue)).toBe(true);
    expect(holdsFullBatch(queue.slice(0, MAX_ITEMS - 1))).toBe(false);
  });

  it(`stops before ${MAX_CHARS} code points, counting an astral character once`, () => {
    const third = Math.floor(MAX_CHARS / 3);
    const long = '😀'.repeat(third); // two UTF-16 units each, one code point
    const rest = MAX_CHARS - 2 * third; // what two of them leave
    const queue = [long, long, 'x'.repeat(rest + 1)];
    expect(takeBatch(queue).batch).toEqual([long, long]);
    expect(holdsFullBatch(queue)).toBe(true);
    expect(takeBatch([long, 'x'.repeat(rest)]).batch).toHaveLength(2);
  });

  it('hands back an item too long for any batch on its own', () => {
    const huge = 'x'.repeat(MAX_CHARS + 1);
    expect(takeBatch([huge, 'next'])).toEqual({ batch: [], tooLong: huge });
  });
});

describe('batchRequest', () => {
  it('derives the request_id from the content: the same batch is the same request, any change a new one', async () => {
    const first = await batchRequest(['Hello', 'World'], languages);
    expect(first).toEqual({
      ...first,
      target_language: 'fr',
      source_language: 'auto',
      items: [
        { id: '0', text: 'Hello' },
        { id: '1', text: 'World' },
      ],
    });
    expect(first.request_id).toMatch(/^lcs-page-[0-9a-f]{64}$/);
    expect((await batchRequest(['Hello', 'World'], languages)).request_id).toBe(first.request_id);
    expect((await batchRequest(['World', 'Hello'], languages)).request_id).not.toBe(first.request_id);
    expect((await batchRequest(['Hello', 'World'], { ...languages, target: 'de' })).request_id).not.toBe(first.request_id);
    expect(first.request_id.length).toBeLessThanOrEqual(IDEMPOTENCY_KEY_MAX);
  });
});
