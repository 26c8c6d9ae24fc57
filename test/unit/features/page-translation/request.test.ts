import { describe, expect, it } from 'vitest';
import { PAGE_TRANSLATION_LIMITS } from '../../../../src/domain/limits.ts';
import { batchLimitErrors, chunkByBudget, prepareItemText, requestHash, translationCacheKey } from '../../../../src/features/page-translation/request.ts';

const request = (overrides = {}) => ({
  request_id: 'r1',
  target_language: 'fr',
  source_language: 'auto',
  items: [
    { id: 'a', text: 'Hello' },
    { id: 'b', text: 'World' },
  ],
  ...overrides,
});

describe('requestHash', () => {
  it('is stable for the same request', () => {
    expect(requestHash(request())).toBe(requestHash(request()));
    expect(requestHash(request())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with languages, ids, texts and item order', () => {
    const base = requestHash(request());
    expect(requestHash(request({ target_language: 'de' }))).not.toBe(base);
    expect(requestHash(request({ source_language: 'en' }))).not.toBe(base);
    expect(
      requestHash(
        request({
          items: [
            { id: 'a', text: 'Hello' },
            { id: 'c', text: 'World' },
          ],
        }),
      ),
    ).not.toBe(base);
    expect(
      requestHash(
        request({
          items: [
            { id: 'a', text: 'Hello ' },
            { id: 'b', text: 'World' },
          ],
        }),
      ),
    ).not.toBe(base);
    expect(
      requestHash(
        request({
          items: [
            { id: 'b', text: 'World' },
            { id: 'a', text: 'Hello' },
          ],
        }),
      ),
    ).not.toBe(base);
  });

  it('cannot be fooled by moving text between fields', () => {
    const one = request({ items: [{ id: 'a","b', text: 'c' }] });
    const two = request({ items: [{ id: 'a', text: 'b","c' }] });
    expect(requestHash(one)).not.toBe(requestHash(two));
  });
});

describe('batchLimitErrors', () => {
  const MAX = PAGE_TRANSLATION_LIMITS.maxTotalCodePoints;
  const HALF = Math.floor(MAX / 2);
  it('accepts exactly the limit in code points of multi-byte text', () => {
    const text = 'é'.repeat(HALF) + '😀'.repeat(MAX - HALF); // MAX code points, more UTF-16 units
    expect(batchLimitErrors([{ id: 'a', text }])).toEqual([]);
  });

  it('refuses one code point more summed over items, naming the limit', () => {
    const errors = batchLimitErrors([
      { id: 'a', text: '😀'.repeat(HALF) },
      { id: 'b', text: 'é'.repeat(MAX - HALF + 1) },
    ]);
    expect(errors).toEqual([{ path: 'items', message: expect.stringContaining(String(MAX + 1)) }]);
    expect(errors[0]!.message).toContain(String(MAX));
  });

  it('reports duplicate ids at the second occurrence', () => {
    expect(
      batchLimitErrors([
        { id: 'x', text: '' },
        { id: 'y', text: '' },
        { id: 'x', text: '' },
      ]),
    ).toEqual([{ path: 'items.2.id', message: 'duplicate id; items.0.id has the same value' }]);
  });
});

describe('prepareItemText', () => {
  it('normalises the core and keeps the outer whitespace for re-insertion', () => {
    expect(prepareItemText('  Hello \n  world ')).toEqual({ leading: '  ', core: 'Hello world', trailing: ' ' });
    expect(prepareItemText('Cafe\u0301')).toEqual({ leading: '', core: 'Café', trailing: '' });
  });

  it('leaves blank text as it is', () => {
    expect(prepareItemText(' \n ')).toEqual({ leading: ' \n ', core: '', trailing: '' });
  });
});

describe('translationCacheKey', () => {
  const parts = { promptVersion: 'v1', model: 'm', sourceLanguage: 'auto', targetLanguage: 'fr', text: 'Hello' };
  it('differs by case, language pair, model and prompt version', () => {
    const base = translationCacheKey(parts);
    expect(translationCacheKey({ ...parts, text: 'hello' })).not.toBe(base);
    expect(translationCacheKey({ ...parts, targetLanguage: 'de' })).not.toBe(base);
    expect(translationCacheKey({ ...parts, sourceLanguage: 'en' })).not.toBe(base);
    expect(translationCacheKey({ ...parts, model: 'n' })).not.toBe(base);
    expect(translationCacheKey({ ...parts, promptVersion: 'v2' })).not.toBe(base);
    expect(translationCacheKey({ ...parts })).toBe(base);
  });
});

describe('chunkByBudget', () => {
  it('keeps an ordinary batch in one call and splits a large one by code points', () => {
    const items = (n: number, size: number) => Array.from({ length: n }, (_, i) => ({ key: String(i), text: 'x'.repeat(size) }));
    expect(chunkByBudget(items(40, 100), 8000)).toHaveLength(1);
    const chunks = chunkByBudget(items(4, 3000), 8000);
    expect(chunks.map((c) => c.length)).toEqual([2, 2]);
    expect(chunkByBudget(items(1, 9000), 8000)).toHaveLength(1);
  });
});
