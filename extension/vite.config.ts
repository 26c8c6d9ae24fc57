import { crx } from '@crxjs/vite-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import manifest from './manifest.config.ts';

/** The browser extension: built unpacked into dist/extension (see build.ts, which also zips it). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The content script as one IIFE: no loader, no chunk for pages to fetch (no web_accessible_resources).
  plugins: [crx({ manifest, contentScripts: { standaloneFiles: ['src/content/index.ts'] } })],
  build: {
    outDir: fileURLToPath(new URL('../dist/extension', import.meta.url)),
    emptyOutDir: true,
    // Readable code in a store review; the bundle is small either way.
    minify: false,
  },
  // The extension reaches the shared REST client and the domain rules outside its root.
  server: { fs: { allow: ['..'] } },
});
