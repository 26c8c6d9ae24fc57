import { describe, expect, it } from 'vitest';
import { momentLink } from '../../../extension/src/shared/moment-link.ts';
import { SOURCE_URL_MAX } from '../../../src/domain/limits.ts';

describe('momentLink', () => {
  it('keeps only the video and the second of a YouTube watch page', () => {
    expect(momentLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&index=3&pp=abc#comments', 42.9)).toBe(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    );
  });

  it('gives any other page a media fragment in place of its own, and drops credentials', () => {
    expect(momentLink('https://user:secret@example.org/talks/river.html?lang=en#chapter-2', 3.6)).toBe('https://example.org/talks/river.html?lang=en#t=3');
  });

  it('keeps nothing for a page that is not http(s), a moment that is not a time, or an address the service would refuse', () => {
    expect(momentLink('file:///home/me/film.html', 3)).toBeNull();
    expect(momentLink('chrome-extension://abc/page.html', 3)).toBeNull();
    expect(momentLink(undefined, 3)).toBeNull();
    expect(momentLink('https://example.org/', Number.NaN)).toBeNull();
    expect(momentLink('https://example.org/', -1)).toBeNull();
    expect(momentLink('https://example.org/', undefined)).toBeNull();
    expect(momentLink(`https://example.org/${'a'.repeat(SOURCE_URL_MAX)}`, 3)).toBeNull();
  });
});
