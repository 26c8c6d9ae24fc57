/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa's injectManifest into dist/web/sw.js): the app
// shell from the precache, every address of the app answered with index.html offline, the API
// always to the network. A new version waits until the page asks it to take over (web/src/pwa.ts).
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { MOVED_APP_PATHS } from '../../src/domain/app-paths.ts';
import { NETWORK_ONLY } from './network-only.ts';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// An address the app had before goes to the server, whose permanent redirect takes the bookmark to its address now.
const MOVED = Object.keys(MOVED_APP_PATHS).map((path) => new RegExp(`^${path}$`));
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [...NETWORK_ONLY, ...MOVED] }));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
