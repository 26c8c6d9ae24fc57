// Imports a module of this repository as it was at an earlier commit, read from git at run time,
// so that a scenario can measure an old version beside the current one without a copy of old
// source checked in (bench/scenarios/weaker-answers.ts reads answers through the reader before
// 262932b). The module and each relative import that differs from the working tree are written,
// as they were at that commit, into a temp dir; an import that is the same file today is pointed
// at today's file (one module instance: its metrics are registered once), and a package at the
// one this checkout resolves. A type-only import is left as it is: it is erased, never loaded.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Static imports and re-exports (`import … from '…'`, `export … from '…'`, `import '…'`), over lines.
const STATIC_IMPORT = /^(\s*(?:(?:import|export)\b[^;'"]*?\bfrom\s+|import\s+))(['"])([^'"]+)\2/gm;

/** A file of the repository at `commit` (a path from the repository's root, with `/`). */
function gitShow(commit: string, path: string): string {
  return execFileSync('git', ['show', `${commit}:${path}`], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

/** The file of a relative import, from the importing file's path (imports here name their `.ts` file). */
function importedPath(from: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}

/**
 * Imports `paths` as they were at `commit` (a commit-ish: `262932b~1`), in one temp tree, so a
 * file they share is one module. Returns the modules by path, the full commit, and the repository
 * paths that were taken from that commit rather than from today's tree.
 */
export async function importAtCommit(
  commit: string,
  paths: readonly string[],
): Promise<{ modules: Record<string, unknown>; commit: string; fromCommit: string[] }> {
  const full = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), `lcs-at-${full.slice(0, 7)}-`));
  const written = new Set<string>();
  const sameToday = (file: string, source: string) => existsSync(join(root, file)) && readFileSync(join(root, file), 'utf8') === source;

  const materialise = (file: string, source: string): void => {
    written.add(file);
    if (/\bimport\s*\(/.test(source.replace(/^\s*(\/\/|\*|\/\*).*$/gm, ''))) throw new Error(`${file}@${full}: a dynamic import is not followed`);
    const rewritten = source.replace(STATIC_IMPORT, (whole, head: string, quote: string, specifier: string) => {
      // A type-only import is erased when the file is compiled: nothing of it is loaded.
      if (specifier.startsWith('node:') || /^\s*(?:import|export)\s+type\b/.test(head)) return whole;
      if (!specifier.startsWith('.')) return `${head}${quote}${import.meta.resolve(specifier)}${quote}`;
      const target = importedPath(file, specifier);
      const old = gitShow(full, target);
      if (sameToday(target, old)) return `${head}${quote}${pathToFileURL(join(root, target)).href}${quote}`;
      if (!written.has(target)) materialise(target, old);
      return whole;
    });
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), rewritten);
  };

  try {
    const urls = paths.map((path) => {
      const source = gitShow(full, path);
      if (sameToday(path, source)) return pathToFileURL(join(root, path)).href;
      if (!written.has(path)) materialise(path, source);
      return pathToFileURL(join(dir, path)).href;
    });
    const modules: Record<string, unknown> = {};
    for (const [i, path] of paths.entries()) modules[path] = await import(urls[i]!);
    return { modules, commit: full, fromCommit: [...written].sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
