import { crx } from '@crxjs/vite-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { manifestFor } from './manifest.config.ts';

/**
 * The browser extension: built unpacked into dist/extension for Chromium, or with `--mode firefox`
 * into dist/extension-firefox (see build.ts, which builds both and zips them).
 */
export default defineConfig(({ mode }) => {
  const browser = mode === 'firefox' ? 'firefox' : 'chrome';
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    // The content script as one IIFE: no loader, no chunk for pages to fetch (no web_accessible_resources).
    plugins: [crx({ manifest: manifestFor(browser), browser, contentScripts: { standaloneFiles: ['src/content/index.ts'] } })],
    build: {
      outDir: fileURLToPath(new URL(browser === 'firefox' ? '../dist/extension-firefox' : '../dist/extension', import.meta.url)),
      emptyOutDir: true,
      // Readable code in a store review; the bundle is small either way.
      minify: false,
    },
    // The extension reaches the shared REST client and the domain rules outside its root.
    server: { fs: { allow: ['..'] } },
  };
});
