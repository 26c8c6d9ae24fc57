import type { KnownExpression } from '../shared/messages.ts';
import { loadSettings } from '../shared/settings.ts';
import { serviceClient } from '../shared/service.ts';

/**
 * The learner's card texts, kept with their ETag in session storage (memory that outlives the
 * service worker's naps, never written to disk): each page asks the service again, and while the
 * library is unchanged the answer is a bodiless 304. Nothing of the page is sent.
 */
interface Kept {
  owner: string;
  etag: string;
  expressions: KnownExpression[];
}
/** Renamed when what is kept changes (now with each card's id), so an older copy is never read as this one. */
const KEY = 'knownCards';

/** Whose list it is: the service and a hash of the token (the token itself is kept in one place only). */
export async function owner(): Promise<string> {
  const { serviceUrl, token } = await loadSettings();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return `${serviceUrl} ${Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export async function knownExpressions(): Promise<KnownExpression[]> {
  const [{ api }, who, stored] = await Promise.all([serviceClient(), owner(), chrome.storage.session.get(KEY)]);
  const kept = (stored[KEY] as Kept | undefined)?.owner === who ? (stored[KEY] as Kept) : null;
  try {
    const { data, response } = await api.GET('/api/library/known-expressions', { params: { header: kept ? { 'if-none-match': kept.etag } : {} } });
    if (response.status === 304 && kept) return kept.expressions;
    if (data) {
      const expressions = data.expressions.map(({ cardId, text, translation }) => ({ cardId, text, translation }));
      await chrome.storage.session.set({ [KEY]: { owner: who, etag: data.etag, expressions } satisfies Kept });
      return expressions;
    }
  } catch {
    // Unreachable: underline what we knew, if anything.
  }
  return kept?.expressions ?? [];
}
