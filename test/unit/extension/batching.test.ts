import { describe, expect, it } from 'vitest';
import { batchRequest, holdsFullBatch, MAX_CHARS, MAX_ITEMS, takeBatch } from '../../../extension/src/shared/batching.ts';

const languages = { source: 'auto', target: 'fr' } as const;

describe('takeBatch', () => {
  it('takes at most 40 items', () => {
    const queue = Array.from({ length: 90 }, (_, i) => `paragraph ${i}`);
    expect(takeBatch(queue).batch).toEqual(queue.slice(0, MAX_ITEMS));
    expect(holdsFullBatch(queue)).toBe(true);
    expect(holdsFullBatch(queue.slice(0, 39))).toBe(false);
  });

  it('stops before 12,000 code points, counting an astral character once', () => {
    const long = '😀'.repeat(5_000); // 10,000 UTF-16 units, 5,000 code points
    const queue = [long, long, 'x'.repeat(2_001)];
    expect(takeBatch(queue).batch).toEqual([long, long]);
    expect(holdsFullBatch(queue)).toBe(true);
    expect(takeBatch([long, 'x'.repeat(2_000)]).batch).toHaveLength(2);
  });

  it('hands back an item too long for any batch on its own', () => {
    const huge = 'x'.repeat(MAX_CHARS + 1);
    expect(takeBatch([huge, 'next'])).toEqual({ batch: [], tooLong: huge });
  });
});

describe('batchRequest', () => {
  it('derives the request_id from the content: the same batch is the same request, any change a new one', async () => {
    const first = await batchRequest(['Hello', 'World'], languages);
    expect(first).toEqual({ ...first, target_language: 'fr', source_language: 'auto', items: [{ id: '0', text: 'Hello' }, { id: '1', text: 'World' }] });
    expect(first.request_id).toMatch(/^lcs-page-[0-9a-f]{64}$/);
    expect((await batchRequest(['Hello', 'World'], languages)).request_id).toBe(first.request_id);
    expect((await batchRequest(['World', 'Hello'], languages)).request_id).not.toBe(first.request_id);
    expect((await batchRequest(['Hello', 'World'], { ...languages, target: 'de' })).request_id).not.toBe(first.request_id);
    expect(first.request_id.length).toBeLessThanOrEqual(128);
  });
});
