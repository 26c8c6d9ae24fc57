import { describe, expect, it } from 'vitest';
import { translationRequests } from '../../../clients/lcs/translate.ts';
import { IDEMPOTENCY_KEY_PATTERN, PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';

const { maxItems, maxTotalCodePoints } = PAGE_TRANSLATION_LIMITS;

describe('translationRequests', () => {
  it(`splits at ${maxItems} items and at ${maxTotalCodePoints} code points, keeping order`, () => {
    const texts = Array.from({ length: 2 * maxItems + 10 }, (_, i) => `text ${i}`);
    const requests = translationRequests(texts, 'de', 'auto');
    expect(requests.map((r) => r.items.length)).toEqual([maxItems, maxItems, 10]);
    expect(requests.flatMap((r) => r.items.map((i) => i.text))).toEqual(texts);
    const half = Math.floor(maxTotalCodePoints / 2) + 1; // two of them exceed one request
    const long = translationRequests(['a'.repeat(half), 'b'.repeat(half)], 'de', 'en');
    expect(long.map((r) => r.items.map((i) => i.id))).toEqual([['0'], ['1']]);
  });
  it('derives request ids from the content: the same texts ask the same, so a rerun is free', () => {
    const ids = (texts: string[], target = 'de') => translationRequests(texts, target, 'auto').map((r) => r.request_id);
    expect(ids(['hello'])).toEqual(ids(['hello']));
    expect(ids(['hello'])).not.toEqual(ids(['hello!']));
    expect(ids(['hello'])).not.toEqual(ids(['hello'], 'fr'));
    expect(ids(['hello'])[0]).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });
});
