import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { webBuildDir } from '../platform/web-build.ts';
import { APP_PATHS, MOVED_APP_PATHS } from '../domain/app-paths.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

const WEB_PAGE_CSP = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

/**
 * The learner's web app, built by Vite into dist/web (src/platform/web-build.ts). Its hashed
 * files under /assets/ never change, so browsers keep them a year; index.html is asked again
 * every time, and answers each of the app's addresses so deep links, Back and Refresh work; an
 * address the app had before (a bookmark) redirects to its address now.
 */
export async function webAppPlugin(app: FastifyInstance) {
  const built = existsSync(path.join(webBuildDir, 'index.html'));
  await app.register(fastifyStatic, {
    root: path.join(webBuildDir, 'assets'),
    prefix: '/assets/',
    // Whatever the folder holds when asked, not what it held at the start: a build written while the service
    // runs (\`npm run build:web\`) names new hashed files in index.html, which would otherwise be 404s, a blank page.
    // Anything else under /assets/ is a 404, and nothing outside the folder is reached.
    wildcard: true,
    index: false,
    // The build writes .br and .gz beside each text asset (src/platform/web-build.ts).
    preCompressed: true,
    serve: built,
    maxAge: '365d',
    immutable: true,
    setHeaders: (reply) => {
      reply.header('content-security-policy', WEB_PAGE_CSP);
    },
  });
  if (!built) app.log.warn('the web app is not built (dist/web): run `npm run build:web`; `npm start` builds it by itself');
  const page =
    (file: string, cacheControl: string): Handler =>
    (_request, reply) =>
      reply.header('content-security-policy', WEB_PAGE_CSP).header('cache-control', cacheControl).sendFile(file, webBuildDir, { cacheControl: false });
  for (const url of Object.values(APP_PATHS)) {
    app.get(url, { config: { auth: 'public' }, schema: { hide: true } }, page('index.html', 'no-cache'));
  }
  for (const [from, to] of Object.entries(MOVED_APP_PATHS)) {
    const redirect = (request: FastifyRequest, reply: FastifyReply) => reply.redirect(to + new URL(request.url, 'http://app').search, 301);
    app.get(from, { config: { auth: 'public' }, schema: { hide: true } }, redirect);
  }
  app.get('/favicon.svg', { config: { auth: 'public' }, schema: { hide: true } }, page('favicon.svg', 'public, max-age=86400'));
  installableAppFiles(app, built, page);
}

/**
 * What makes the app installable (web/manifest.ts, web/sw/sw.ts): the manifest, the service worker
 * and its icons, at the root so the worker's scope is the whole app. The worker precaches
 * /index.html by that name, and both it and the manifest are asked again every time so a new
 * version is found; the icons are kept a day. Each is under the page's CSP: it allows all of them
 * from 'self' (manifest-src and worker-src fall back to default-src).
 */
function installableAppFiles(app: FastifyInstance, built: boolean, page: (file: string, cacheControl: string) => Handler) {
  const hidden = { config: { auth: 'public' as const }, schema: { hide: true } };
  app.get('/index.html', hidden, page('index.html', 'no-cache'));
  app.get('/sw.js', hidden, page('sw.js', 'no-cache'));
  app.get('/manifest.webmanifest', hidden, page('manifest.webmanifest', 'no-cache'));
  const icons = path.join(webBuildDir, 'icons');
  for (const icon of built && existsSync(icons) ? readdirSync(icons) : []) app.get(`/icons/${icon}`, hidden, page(`icons/${icon}`, 'public, max-age=86400'));
}
