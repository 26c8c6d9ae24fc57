import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createHash } from 'node:crypto';
import type { components } from '../rest/schema.d.ts';
import { IMPORT_FILE_MAX_BYTES } from '../../src/domain/limits.ts';
import { CliError } from './context.ts';
import { fromCwd } from './io.ts';
import { EXIT } from './exit.ts';
import type { Api } from './service.ts';

export type ImportView = components['schemas']['Import'];
export type ImportCreated = { import: ImportView; parsed: { expressions: number; skipped: Record<string, number>; problemsTotal: number }; replayed: boolean };

const TYPES: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  kindle: 'application/vnd.sqlite3',
  koreader: 'application/vnd.sqlite3',
  apkg: 'application/zip',
};

/** The file's bytes, refused here already when larger than an import takes (the service says the same). */
export async function readImportFile(path: string): Promise<Buffer> {
  const size = (
    await stat(fromCwd(path)).catch(() => {
      throw new CliError(`No such file: ${path}`, EXIT.usage);
    })
  ).size;
  if (size > IMPORT_FILE_MAX_BYTES) {
    throw new CliError(
      `${path} is ${(size / 1_000_000).toFixed(1)} MB; an import takes files up to ${IMPORT_FILE_MAX_BYTES / 1_000_000} MB. Split it.`,
      EXIT.usage,
    );
  }
  return readFile(fromCwd(path));
}

/**
 * Sends a file as an import. Its Idempotency-Key is the hash of the file and the options, so a
 * retried upload (a dropped connection, the command run twice) is the same import.
 */
export async function uploadImport(
  service: Api,
  path: string,
  bytes: Buffer,
  options: {
    format?: string | undefined;
    column?: string | undefined;
    header?: boolean | undefined;
    decks?: string[] | undefined;
    field?: string | undefined;
    sentenceField?: string | undefined;
    history?: boolean | undefined;
    bookTitles?: boolean | undefined;
  },
): Promise<ImportCreated> {
  const fileName = basename(path);
  const key = createHash('sha256').update(bytes).update(JSON.stringify(options)).digest('hex').slice(0, 64);
  const query = {
    ...(options.format ? { format: options.format } : {}),
    ...(options.column ? { column: options.column } : {}),
    ...(options.header !== undefined ? { header: String(options.header) } : {}),
    ...(options.decks?.length ? { deck: options.decks } : {}),
    ...(options.field ? { field: options.field } : {}),
    ...(options.sentenceField ? { sentenceField: options.sentenceField } : {}),
    ...(options.history ? { history: 'true' } : {}),
    ...(options.bookTitles ? { bookTitles: 'true' } : {}),
    fileName,
  };
  return await service.call((c) =>
    c.POST('/api/library/imports/file', {
      params: { query: query as never, header: { 'idempotency-key': `lcs-${key}` } as never },
      body: bytes as never,
      bodySerializer: (body: unknown) => body as never,
      headers: { 'content-type': TYPES[options.format ?? ''] ?? 'application/octet-stream', 'idempotency-key': `lcs-${key}` },
    }),
  );
}

/** A list of expressions as an import (`lcs capture` beyond a few lines, the MCP tool). */
export async function importList(service: Api, expressions: string[], source?: string): Promise<ImportCreated> {
  return await service.call((c) => c.POST('/api/library/imports', { body: { expressions, ...(source ? { source } : {}) } }));
}

export async function getImport(service: Api, importId: string): Promise<ImportView> {
  return (await service.call((c) => c.GET('/api/library/imports/{importId}', { params: { path: { importId } } }))).import;
}

/** Settled out of the total: prepared, failed, reused, removed. */
export function importDone(view: ImportView): number {
  const failed = Object.values(view.counts.failed).reduce((a, b) => a + b, 0);
  return view.counts.prepared + failed + view.counts.reused + view.counts.removed;
}

const STOPPED = new Set(['completed', 'cancelled', 'waiting_for_credits']);

/** Follows an import every second until it stops (or, with `until: 'saved'`, until its cards are saved). */
export async function followImport(
  service: Api,
  importId: string,
  onUpdate: (view: ImportView) => void,
  until: 'stopped' | 'saved' = 'stopped',
): Promise<ImportView> {
  for (;;) {
    const view = await getImport(service, importId);
    onUpdate(view);
    if (STOPPED.has(view.state) || (until === 'saved' && view.state !== 'saving')) return view;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** What the bar says beside its numbers. */
export function importNote(view: ImportView): string {
  const c = view.counts;
  const failed = Object.values(c.failed).reduce((a, b) => a + b, 0);
  const counts = [
    `${c.prepared} prepared`,
    c.reused ? `${c.reused} reused` : '',
    c.preparing ? `${c.preparing} in progress` : '',
    failed ? `${failed} failed` : '',
    c.waitingForCredits ? `${c.waitingForCredits} waiting for credits` : '',
  ].filter(Boolean);
  return `${view.state.replaceAll('_', ' ')}: ${counts.join(', ')}`;
}

export async function importRows(service: Api, importId: string) {
  const items: { position: number; line: number; text: string; cardId: string | null; outcome: 'new' | 'reused' | null }[] = [];
  let cursor: number | undefined = 0;
  while (cursor !== undefined) {
    const page = (await service.call((c) => c.GET('/api/library/imports/{importId}/rows', { params: { path: { importId }, query: { cursor } } }))) as {
      items: typeof items;
      nextCursor: number | null;
    };
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  }
  return items;
}
