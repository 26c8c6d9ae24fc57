// The browser extension's builds from the same source: Chromium (extension/ → dist/extension,
// zipped to dist/extension.zip) and Firefox (dist/extension-firefox, dist/extension-firefox.zip,
// ready to sign), redone only when what they read changed: the test suite's global setup calls
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
export const firefoxExtensionDir = path.join(root, 'dist', 'extension-firefox');
const firefoxExtensionZip = path.join(root, 'dist', 'extension-firefox.zip');
const stampFile = path.join(extensionDir, '.source-hash');
/** What the bundle is made of: the extension, the shared REST client, and the domain rules it imports. */
const sources = ['extension', 'clients/rest', 'src/domain'].map((dir) => path.join(root, dir));

/** Builds and zips the extension for both browsers unless both were built from these very sources; returns whether it built. */
export async function ensureExtensionBuild(log: (message: string) => void = () => {}): Promise<boolean> {
  const hash = sourceHash(sources);
  const built = [stampFile, extensionZip, firefoxExtensionZip].every((file) => existsSync(file));
  if (built && readFileSync(stampFile, 'utf8') === hash) return false;
  const started = Date.now();
  log('extension: building …');
  // One after the other: the two builds share the machine's cores anyway.
  for (const [mode, dir, zip] of [
    ['production', extensionDir, extensionZip],
    ['firefox', firefoxExtensionDir, firefoxExtensionZip],
  ] as const) {
    await viteBuild(mode);
    zipFolder(dir, zip);
  }
  writeFileSync(stampFile, hash); // after the zips: the stamp is not part of them
  const outputs = [extensionDir, extensionZip, firefoxExtensionDir, firefoxExtensionZip].map((file) => path.relative(root, file)).join(', ');
  log(`extension: built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${outputs}`);
  return true;
}

const viteBuild = (mode: 'production' | 'firefox') =>
  promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', path.join(root, 'extension/vite.config.ts'), '--mode', mode, '--logLevel', 'warn'],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' } },
  );

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureExtensionBuild((message) => console.error(`[build:extension] ${message}`));
}
