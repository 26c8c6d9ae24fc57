import { describe, expect, it } from 'vitest';
import { isAutoTranslated } from '../../../extension/src/shared/site-list.ts';

describe('isAutoTranslated', () => {
  const sites = ['news.example.org', 'localhost:8080', ' Blog.Example.com '];
  it('matches a listed host, its subdomains, and a host with its port', () => {
    expect(isAutoTranslated('https://news.example.org/world', sites)).toBe(true);
    expect(isAutoTranslated('https://eu.news.example.org/', sites)).toBe(true);
    expect(isAutoTranslated('http://localhost:8080/a', sites)).toBe(true);
    expect(isAutoTranslated('https://blog.example.com/', sites)).toBe(true);
  });

  it('matches nothing else: another port, a look-alike host, a browser page, no address', () => {
    expect(isAutoTranslated('http://localhost:3000/', sites)).toBe(false);
    expect(isAutoTranslated('https://fakenews.example.org/', sites)).toBe(false);
    expect(isAutoTranslated('chrome://settings', ['settings'])).toBe(false);
    expect(isAutoTranslated(undefined, sites)).toBe(false);
    expect(isAutoTranslated('https://x.org/', ['', '  '])).toBe(false);
  });
});
