/**
 * The web app's addresses, in Fastify's path syntax. The server answers each with index.html
 * (src/http/web-app.ts) so deep links and Refresh work; the app's router (web/src/paths.ts)
 * matches the same list. Here, not in web/, because the server reads it and src imports no client.
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
  // The share target (web/manifest.ts): another app's share sheet opens it with ?text=&title=&url=.
  capture: '/capture',
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
