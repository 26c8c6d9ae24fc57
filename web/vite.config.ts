import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { webManifest } from './manifest.ts';

/** The learner's web app: built into dist/web (hashed names under /assets/), served by src/http/web-app.ts. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    // The manifest and a Workbox service worker of our own (web/sw/sw.ts), built by Vite itself
    // (generateSW's own Rollup, Babel and Terser pass took 17 s a build): the app shell offline, a
    // new version waiting until the learner takes it (web/src/pwa.ts). Nothing of the API is
    // cached by it: what Replay needs offline the app keeps itself (web/src/offline-store.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: webManifest,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png}'] },
    }),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The page's CSP allows no inline code: keep every asset a file of its own.
    assetsInlineLimit: 0,
  },
});
