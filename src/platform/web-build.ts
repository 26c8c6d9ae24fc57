// The web app's build (web/ → dist/web), redone only when its sources changed: `npm start` and
// the test suite call `ensureWebBuild`; `npm run build:web` runs this file.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const webDir = path.join(root, 'web');
export const webBuildDir = path.join(root, 'dist', 'web');
const stampFile = path.join(webBuildDir, '.source-hash');

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    });
}

/** A hash of what a build reads: these files and the files under these folders, and the locked dependency versions. */
export function sourceHash(paths: readonly string[]): string {
  const hash = createHash('sha256');
  const files = paths.flatMap((p) => (statSync(p).isDirectory() ? filesUnder(p) : [p]));
  for (const file of [...files, path.join(root, 'package-lock.json')]) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Brotli and gzip copies beside each text file of the build (index.html too), made once at build time at the highest levels,
 * which the server sends to browsers that accept them (`preCompressed`): about a third of the bytes
 * on a first load, at no cost per request.
 */
function compressAssets(dir: string): void {
  for (const file of filesUnder(dir).filter((f) => /\.(js|css|svg|json|html)$/.test(f))) {
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}

/** Builds the app unless dist/web was built from these very sources; returns whether it built. */
export async function ensureWebBuild(log: (message: string) => void = () => {}): Promise<boolean> {
  // This file too: how the build is made (e.g. its compressed copies) is part of what it is.
  const hash = sourceHash([webDir, fileURLToPath(import.meta.url)]);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) return false;
  const started = Date.now();
  log('web app: building …');
  // A process of its own with NODE_ENV=production: Vite and React pick their production builds by
  // it, whatever the caller runs with (the test suite sets `test`), and the server never loads Vite.
  await promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', path.join(webDir, 'vite.config.ts'), '--logLevel', 'warn'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  // The hashed assets and the page itself (index.html, the favicon): each is sent compressed.
  compressAssets(webBuildDir);
  writeFileSync(stampFile, hash);
  log(`web app: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureWebBuild((message) => console.error(`[build:web] ${message}`));
}
