// The browser extension's build (extension/ → dist/extension, zipped to dist/extension.zip),
// redone only when what it reads changed: the test suite's global setup calls
// `ensureExtensionBuild`; `npm run build:extension` runs this file.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sourceHash } from '../src/platform/web-build.ts';
import { zipFolder } from './zip.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
export const extensionDir = path.join(root, 'dist', 'extension');
export const extensionZip = path.join(root, 'dist', 'extension.zip');
const stampFile = path.join(extensionDir, '.source-hash');
/** What the bundle is made of: the extension, the shared REST client, and the domain rules it imports. */
const sources = ['extension', 'clients/rest', 'src/domain'].map((dir) => path.join(root, dir));

/** Builds and zips the extension unless dist/extension was built from these very sources; returns whether it built. */
export async function ensureExtensionBuild(log: (message: string) => void = () => {}): Promise<boolean> {
  const hash = sourceHash(sources);
  if (existsSync(stampFile) && existsSync(extensionZip) && readFileSync(stampFile, 'utf8') === hash) return false;
  const started = Date.now();
  log('extension: building …');
  await promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', path.join(root, 'extension/vite.config.ts'), '--logLevel', 'warn'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  zipFolder(extensionDir, extensionZip);
  writeFileSync(stampFile, hash); // after the zip: the stamp is not part of it
  log(`extension: built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${path.relative(root, extensionDir)}, ${path.relative(root, extensionZip)}`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureExtensionBuild((message) => console.error(`[build:extension] ${message}`));
}
