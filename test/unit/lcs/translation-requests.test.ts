import { describe, expect, it } from 'vitest';
import { translationRequests } from '../../../clients/lcs/translate.ts';

describe('translationRequests', () => {
  it('splits at 40 items and at 12,000 code points, keeping order', () => {
    const texts = Array.from({ length: 90 }, (_, i) => `text ${i}`);
    const requests = translationRequests(texts, 'de', 'auto');
    expect(requests.map((r) => r.items.length)).toEqual([40, 40, 10]);
    expect(requests.flatMap((r) => r.items.map((i) => i.text))).toEqual(texts);
    const long = translationRequests(['a'.repeat(7000), 'b'.repeat(7000)], 'de', 'en');
    expect(long.map((r) => r.items.map((i) => i.id))).toEqual([['0'], ['1']]);
  });
  it('derives request ids from the content: the same texts ask the same, so a rerun is free', () => {
    const ids = (texts: string[], target = 'de') => translationRequests(texts, target, 'auto').map((r) => r.request_id);
    expect(ids(['hello'])).toEqual(ids(['hello']));
    expect(ids(['hello'])).not.toEqual(ids(['hello!']));
    expect(ids(['hello'])).not.toEqual(ids(['hello'], 'fr'));
    expect(ids(['hello'])[0]).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });
});
