/**
 * The app's addresses, in Fastify's path syntax. The server answers each with index.html
 * (src/http/web-app.ts) so deep links and Refresh work; the app's router matches the same list.
 */
export const APP_PATHS = {
  home: '/',
  signIn: '/sign-in',
  signUp: '/sign-up',
  welcome: '/welcome',
  library: '/library',
  // Before `card`: matched first, so /library/import is not a card id.
  libraryImport: '/library/import',
  card: '/library/:cardId',
  replay: '/replay',
  settings: '/settings',
  credits: '/credits',
  sentences: '/sentences',
  translate: '/translate',
  draft: '/draft',
  progress: '/progress',
} as const;

/**
 * Addresses the app had before, kept for bookmarks: the server answers each with a permanent
 * redirect to its address now (src/http/web-app.ts).
 */
export const MOVED_APP_PATHS: Readonly<Record<string, AppPath>> = {
  '/write': APP_PATHS.draft,
};

export type AppPath = (typeof APP_PATHS)[keyof typeof APP_PATHS];

/** The route `pathname` is at, with its parameters, or null for an address the app does not have. */
export function matchPath(pathname: string): { path: AppPath; params: Record<string, string> } | null {
  for (const path of Object.values(APP_PATHS)) {
    const pattern = path.split('/');
    const parts = pathname.replace(/\/+$/, '').split('/');
    if (path === '/' && pathname === '/') return { path, params: {} };
    if (pattern.length !== parts.length || path === '/') continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((segment, i) => {
      if (segment.startsWith(':')) return (params[segment.slice(1)] = decodeURIComponent(parts[i]!)) !== '';
      return segment === parts[i];
    });
    if (fits) return { path, params };
  }
  return null;
}
