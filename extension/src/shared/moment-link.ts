import { SOURCE_URL_MAX } from '../../../src/domain/limits.ts';

const YOUTUBE_HOSTS = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com']);

/**
 * "Keep a link back to the moment": the address of the page a caption was captured on, at the
 * caption's second, and nothing else of it. A YouTube watch page keeps only its video (`v`) and
 * the time (`t`); any other page loses its fragment for a media fragment (`#t=`). Credentials in
 * the address are dropped; only http(s) addresses the service takes (SOURCE_URL_MAX) are kept.
 */
export function momentLink(pageUrl: string | undefined, seconds: number | undefined): string | null {
  if (!pageUrl || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const at = Math.floor(seconds);
  url.username = '';
  url.password = '';
  url.hash = '';
  const video = url.searchParams.get('v');
  if (YOUTUBE_HOSTS.has(url.hostname) && url.pathname === '/watch' && video) {
    url.search = new URLSearchParams({ v: video, t: `${at}s` }).toString();
  } else url.hash = `t=${at}`;
  return url.href.length <= SOURCE_URL_MAX ? url.href : null;
}
