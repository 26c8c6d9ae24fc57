import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from '@typescript/typescript6';
import { describe, expect, it } from 'vitest';

/**
 * The README, the docs and the feature folders' READMEs cite code by symbol and path (`captureCard` in
 * `src/features/library/service.ts`), never by line: a line number drifts silently, a symbol that moves fails here. Three forms are read, across line breaks:
 * `sym` (`path` …), `sym`, `path` and `sym` [, `sym` | and `sym`] in `path`. A dotted `a.b` needs every part
 * declared in the file (`libraryOperations.capture`: the const and its property key).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const inFolder = (folder: string, pick: (file: string) => string) => readdirSync(path.join(root, folder)).map((file) => `${folder}/${pick(file)}`);
/** The README, the docs, and the feature folders' READMEs. */
const documents = ['README.md', ...inFolder('docs', (file) => file), ...inFolder('src/features', (feature) => `${feature}/README.md`)].filter(
  (file) => file.endsWith('.md') && existsSync(path.join(root, file)),
);

const SYMBOL = String.raw`\x60([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\([^\x60]*\))?\x60`;
const PATH = String.raw`\x60([\w.-]+(?:/[\w.-]+)+\.(?:ts|tsx|js|mjs))\x60`;
const CITATION_FORMS = [
  new RegExp(`${SYMBOL} \\(${PATH}`, 'g'),
  new RegExp(`${SYMBOL}, ${PATH}`, 'g'),
  new RegExp(`((?:${SYMBOL}(?:, | and ))*${SYMBOL}) in ${PATH}`, 'g'),
];
/** `vitest.config.ts` reads like a dotted symbol, but names a file. */
const FILE_NAME = /\.(?:ts|tsx|js|mjs|md|json|sh)$/;
/** A code span like `src/x.ts:12` or `README.md:3`. */
const LINE_CITATION = /\x60[^\x60\s]+\.(?:ts|tsx|js|mjs|md|sh|json):\d+\x60/g;
/** Folders of the repository whose paths the docs name; `dist/` and the like are built, not kept. */
const KEPT_PATH = /\x60((?:src|test|web|extension|clients|tools|bench|chaos|bin|temporal|docs|\.ci)\/[\w./-]*)\x60/g;

interface Citation {
  symbol: string;
  file: string;
}

/** Every symbol/path pair a Markdown text cites. */
function citationsIn(markdown: string): Citation[] {
  const text = markdown.replace(/\s*\n\s*/g, ' ');
  const found: Citation[] = [];
  for (const form of CITATION_FORMS) {
    for (const match of text.matchAll(form)) {
      const file = match.at(-1)!;
      const symbols = [...match[0].matchAll(new RegExp(SYMBOL, 'g'))].map((m) => m[1]!).filter((symbol) => !FILE_NAME.test(symbol));
      const cited = form === CITATION_FORMS[2] ? symbols : symbols.slice(0, 1);
      for (const symbol of cited) found.push({ symbol, file });
    }
  }
  return found;
}

const DECLARATIONS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.EnumMember,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ShorthandPropertyAssignment,
]);

/** The names a TypeScript file declares: functions, classes, interfaces, types, enums, variables, methods, property keys. */
function declaredNames(source: string, file: string): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    const name = (node as ts.NamedDeclaration).name;
    if (DECLARATIONS.has(node.kind) && name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) names.add(name.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
  return names;
}

/** What is wrong with a document's citations, one line each; empty when every one holds. */
function citationProblems(document: string, markdown: string, readSource: (file: string) => string | null): string[] {
  const problems = [...markdown.matchAll(LINE_CITATION)].map(([span]) => `${document}: ${span} cites a line; cite a symbol in its file instead`);
  for (const [, kept] of markdown.matchAll(KEPT_PATH)) {
    if (!/[<>*…$]/.test(kept!) && readSource(kept!.replace(/\/$/, '')) === null) problems.push(`${document}: \`${kept}\` does not exist`);
  }
  const declared = new Map<string, Set<string> | null>();
  for (const { symbol, file } of citationsIn(markdown)) {
    if (!declared.has(file)) {
      const source = readSource(file);
      declared.set(file, source === null ? null : declaredNames(source, file));
    }
    const names = declared.get(file);
    if (names === null) problems.push(`${document}: \`${symbol}\` is cited in \`${file}\`, which does not exist`);
    else {
      const missing = symbol.split('.').filter((part) => !names!.has(part));
      if (missing.length > 0) problems.push(`${document}: \`${file}\` declares no \`${missing.join('`, `')}\` (cited as \`${symbol}\`)`);
    }
  }
  return problems;
}

/** A file's text, `''` for a folder, null when the path does not exist. */
function readRepositoryFile(file: string): string | null {
  const full = path.join(root, file);
  if (!existsSync(full)) return null;
  return file.endsWith('.ts') || file.endsWith('.tsx') || file.endsWith('.js') || file.endsWith('.mjs') ? readFileSync(full, 'utf8') : '';
}

describe('code citations in the README and docs', () => {
  it('reads the three forms and refuses a drifted citation', () => {
    const drifted = [
      'The operation `libraryOperations.capture` (`src/features/library/operations.ts`) calls',
      '`captureCard(ctx, userId, text)` (`src/features/library/service.ts`); `insertCard` and `captureCardNow` in',
      '`src/features/library/service.ts`; the start (`enqueueFrom`, `src/temporal/outbox-relay.ts`); `migrate` (`src/db/orm.ts:31`);',
      '`ghost` in `src/features/library/gone.ts`; the folder `src/features/nowhere/`.',
    ].join('\n');
    expect(citationsIn(drifted)).toEqual([
      { symbol: 'libraryOperations.capture', file: 'src/features/library/operations.ts' },
      { symbol: 'captureCard', file: 'src/features/library/service.ts' },
      { symbol: 'enqueueFrom', file: 'src/temporal/outbox-relay.ts' },
      { symbol: 'insertCard', file: 'src/features/library/service.ts' },
      { symbol: 'captureCardNow', file: 'src/features/library/service.ts' },
      { symbol: 'ghost', file: 'src/features/library/gone.ts' },
    ]);
    expect(citationProblems('drifted.md', drifted, readRepositoryFile)).toEqual([
      'drifted.md: `src/db/orm.ts:31` cites a line; cite a symbol in its file instead',
      'drifted.md: `src/features/library/gone.ts` does not exist',
      'drifted.md: `src/features/nowhere/` does not exist',
      'drifted.md: `src/temporal/outbox-relay.ts` declares no `enqueueFrom` (cited as `enqueueFrom`)',
      'drifted.md: `src/features/library/service.ts` declares no `captureCardNow` (cited as `captureCardNow`)',
      'drifted.md: `ghost` is cited in `src/features/library/gone.ts`, which does not exist',
    ]);
  });

  it.each(documents)('%s cites only symbols its paths declare', (document) => {
    expect(citationProblems(document, readFileSync(path.join(root, document), 'utf8'), readRepositoryFile)).toEqual([]);
  });

  it('finds the README story’s citations (the reader’s path from a capture to a ready card)', () => {
    expect(citationsIn(readFileSync(path.join(root, 'README.md'), 'utf8')).length).toBeGreaterThanOrEqual(40);
  });
});
