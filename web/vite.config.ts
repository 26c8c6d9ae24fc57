import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The learner's web app: built into dist/web (hashed names under /assets/), served by src/http/web-app.ts. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The page's CSP allows no inline code: keep every asset a file of its own.
    assetsInlineLimit: 0,
  },
});
