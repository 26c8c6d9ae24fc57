/** The learner's list of sites to translate automatically (options page), as a pure rule. */

/** Whether a page's address is on the list: its host (with port) or host name, or a subdomain of an entry. */
export function isAutoTranslated(pageUrl: string | undefined, sites: readonly string[]): boolean {
  if (!pageUrl) return false;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return sites.some((entry) => {
    const site = entry.trim().toLowerCase();
    return site !== '' && (url.host === site || url.hostname === site || url.hostname.endsWith(`.${site}`));
  });
}
