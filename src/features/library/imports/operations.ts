import { z } from 'zod';
import { IMPORT_EXPRESSIONS_MAX, IMPORT_FILE_MAX_BYTES } from '../../../domain/limits.ts';
import { importCardsPerHour } from '../../../domain/plans.ts';
import { AppError } from '../../../domain/problems.ts';
import { defineOperation, restParts } from '../../../http/operation.ts';
import {
  IMPORT_FILE_LIMIT_TEXT,
  importCreatedSchema,
  importEnvelopeSchema,
  importFileQuerySchema,
  importHeadersSchema,
  importIdSchema,
  importInputSchema,
  importListSchema,
  importPreviewSchema,
  importRequestSchema,
  importRowsQuerySchema,
  importRowsSchema,
} from './schemas.ts';
import { cancelImport, createImport, getImport, importRows, listImports, parseExpressionList, parseImportFile, previewImport } from './service.ts';

const tag = 'imports';

/** The media types an import's file may come as. */
const FILE_TYPES = [
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'application/vnd.sqlite3',
  'application/x-sqlite3',
  'application/zip',
  'application/octet-stream',
];

const fileBody = {
  types: FILE_TYPES,
  maxBytes: IMPORT_FILE_MAX_BYTES,
  tooLarge: (bytes: number) => `This file is ${(bytes / 1_000_000).toFixed(1)} MB; an import takes files up to ${IMPORT_FILE_LIMIT_TEXT}. Split it.`,
};

/** A JSON list of up to 10,000 expressions with contexts: larger than other bodies. */
const LIST_BODY_LIMIT = 8_000_000;

const fileInput = restParts({
  querystring: importFileQuerySchema,
  headers: importHeadersSchema,
  toInput: ({ query, body, headers }) => {
    // No body at all (a request without Content-Type): the file is missing, which no parser saw.
    if (!Buffer.isBuffer(body))
      throw new AppError('invalid_request', 'Send the file itself as the request body (text/plain, text/csv, text/tab-separated-values or a vocab.db).', {
        errors: [{ path: 'body', message: 'the file is missing' }],
      });
    return { ...query, bytes: body, idempotencyKey: headers['idempotency-key'] };
  },
});
const fileInputSchema = importFileQuerySchema.extend({
  bytes: z.custom<Buffer>((value) => Buffer.isBuffer(value), { message: 'send the file itself as the request body' }),
  idempotencyKey: z.string().optional(),
});
const fileDescription =
  `The file itself as the body (not multipart): text/plain, text/csv, text/tab-separated-values; for a Kindle vocab.db or KOReader's ` +
  `vocabulary_builder.sqlite3, application/vnd.sqlite3; for an Anki package (.apkg, .colpkg), application/zip (any of them also as ` +
  `application/octet-stream). An Anki package's preview names its decks and note types (\`anki\`): choose with \`deck\`, \`field\` and ` +
  `\`sentenceField\`. Up to ${IMPORT_FILE_LIMIT_TEXT}; a larger Content-Length is refused (413) before the body is ` +
  `read. The file is read in a thread of its own, never holding up the service: one of yours at a time (another meanwhile is 429 with ` +
  `\`limit: "import_reads"\`), a few per server (past them 503 with Retry-After), each within a memory limit and a deadline (IMPORT_READ_MEMORY_MB, ` +
  `IMPORT_READ_DEADLINE_SECONDS); past either, 422 \`import_too_costly\` whose \`limit\` is \`memory\` (with \`limitMb\`) or \`time\` (with ` +
  `\`limitSeconds\`), and nothing is imported. Reading stops at the first expression past the ${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')} an import ` +
  `takes (400 \`too_many_expressions\`, naming the line).`;

const newCardsDescription =
  `An import's new cards must fit in the library (the plan's size: 409 \`library_full\` with \`limit\`, \`cards\` and \`room\`) and within the new ` +
  `cards imports may create in an hour on the plan (by default ${importCardsPerHour.free.toLocaleString('en')} free, ` +
  `${importCardsPerHour.paid.toLocaleString('en')} paid: past it 429 \`limit: "import_cards"\` with Retry-After); expressions already in the library ` +
  `count for neither.`;

const optionsOf = (input: z.infer<typeof fileInputSchema>) => ({
  format: input.format,
  column: input.column,
  header: input.header === undefined ? undefined : input.header === 'true',
  decks: input.deck === undefined ? undefined : [input.deck].flat(),
  field: input.field,
  sentenceField: input.sentenceField,
  bookTitles: input.bookTitles === 'true',
  history: input.history === 'true',
  fileName: input.fileName,
});

const importId = '$response.body#/import/importId';
const importLinks = {
  get: { operationId: 'library.imports.get', parameters: { importId } },
  cancel: { operationId: 'library.imports.cancel', parameters: { importId } },
};

/** Imports (issue 26) at /api/library/imports and tRPC `library.imports.*`. */
export const importOperations = {
  create: defineOperation({
    tag,
    summary: 'Import a list of expressions (saved at once, prepared in the background within your model budget)',
    auth: 'write',
    requiresLanguages: true,
    input: importInputSchema,
    output: importCreatedSchema,
    rest: {
      method: 'POST',
      path: '/api/library/imports',
      bodyLimit: LIST_BODY_LIMIT,
      status: ({ replayed }) => (replayed ? 200 : 202),
      headers: ({ replayed }): Record<string, string> => (replayed ? { 'idempotent-replayed': 'true' } : {}),
      problems: [409, 413, 422, 428],
      responses: { 202: importCreatedSchema, 200: importCreatedSchema },
      links: { 202: importLinks, 200: importLinks },
      description:
        'The same list again (or the same `Idempotency-Key`) is the same import: 200 with `Idempotent-Replayed: true`. One import runs at a time per ' +
        `learner (409 names the running one). Follow it with GET /api/library/imports/{importId}. ${newCardsDescription}`,
      input: restParts({
        body: importRequestSchema,
        headers: importHeadersSchema,
        toInput: ({ body, headers }) => ({ ...body, idempotencyKey: headers['idempotency-key'] }),
      }),
    },
    handler: (ctx, input) =>
      createImport(ctx, {
        userId: ctx.principal.userId,
        parsed: parseExpressionList(input.expressions),
        fileName: input.source ?? null,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  /** REST only: the file as the body. */
  createFromFile: defineOperation({
    tag,
    summary: 'Import a file: plain lines, CSV/TSV, Anki notes text or package, Kindle vocab.db, KOReader vocabulary, or our own CSV export',
    auth: 'write',
    requiresLanguages: true,
    input: fileInputSchema,
    output: importCreatedSchema,
    rest: {
      method: 'POST',
      path: '/api/library/imports/file',
      fileBody,
      status: ({ replayed }) => (replayed ? 200 : 202),
      headers: ({ replayed }): Record<string, string> => (replayed ? { 'idempotent-replayed': 'true' } : {}),
      problems: [409, 413, 415, 422, 428],
      responses: { 202: importCreatedSchema, 200: importCreatedSchema },
      links: { 202: importLinks, 200: importLinks },
      description:
        `${fileDescription} A file that cannot be read is a 400 whose \`reason\` says why (empty_file, not_text, not_sqlite, not_kindle, ` +
        `damaged_sqlite, missing_column, too_many_expressions, nothing_to_import; for packages not_zip, too_many_entries, archive_too_large, ` +
        `nested_archive, damaged_archive, not_anki, missing_deck, missing_field, nothing_in_deck; not_koreader); ` +
        `a record that cannot be read is a problem naming its line, and the rest is imported. ${newCardsDescription}`,
      input: fileInput,
    },
    handler: async (ctx, input) =>
      createImport(ctx, {
        userId: ctx.principal.userId,
        parsed: await parseImportFile(ctx, ctx.principal.userId, input.bytes, optionsOf(input)),
        fileName: input.fileName ?? null,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  /** REST only: what a file would import, storing nothing. */
  preview: defineOperation({
    tag,
    summary: 'Preview a file’s import: counts, first lines, what is already in your library (stores nothing)',
    auth: 'write',
    input: fileInputSchema,
    output: importPreviewSchema,
    rest: { method: 'POST', path: '/api/library/imports/preview', fileBody, problems: [413, 415, 422], description: fileDescription, input: fileInput },
    handler: async (ctx, input) => previewImport(ctx, ctx.principal.userId, await parseImportFile(ctx, ctx.principal.userId, input.bytes, optionsOf(input))),
  }),
  list: defineOperation({
    tag,
    summary: 'Your 20 newest imports',
    auth: 'read',
    input: z.object({}).optional(),
    output: importListSchema,
    rest: { method: 'GET', path: '/api/library/imports' },
    handler: async (ctx) => ({ items: await listImports(ctx, ctx.principal.userId) }),
  }),
  get: defineOperation({
    tag,
    summary: 'An import’s progress: total, saved, reused, prepared, failed by code, waiting for credits, state',
    auth: 'read',
    input: importIdSchema,
    output: importEnvelopeSchema,
    rest: { method: 'GET', path: '/api/library/imports/:importId', input: 'params', problems: [404] },
    handler: async (ctx, { importId }) => ({ import: await getImport(ctx, ctx.principal.userId, importId) }),
  }),
  rows: defineOperation({
    tag,
    summary: 'An import’s rows with their cards, in file order (500 a page)',
    auth: 'read',
    input: importRowsQuerySchema,
    output: importRowsSchema,
    rest: {
      method: 'GET',
      path: '/api/library/imports/:importId/rows',
      problems: [404],
      input: restParts({
        params: importIdSchema,
        querystring: z.object({ cursor: z.coerce.number().int().min(0).max(2_147_483_647).optional() }),
        toInput: ({ params, query }) => ({ ...params, cursor: query.cursor }),
      }),
    },
    handler: (ctx, { importId, cursor }) => importRows(ctx, ctx.principal.userId, importId, cursor),
  }),
  cancel: defineOperation({
    tag,
    summary: 'Cancel an import: what is saved stays; preparations not started are not made',
    auth: 'write',
    input: importIdSchema,
    output: importEnvelopeSchema,
    rest: { method: 'POST', path: '/api/library/imports/:importId/cancel', input: 'params', problems: [404] },
    handler: async (ctx, { importId }) => ({ import: await cancelImport(ctx, ctx.principal.userId, importId) }),
  }),
};
