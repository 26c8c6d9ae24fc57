import { z } from 'zod';
import { IMPORT_FORMATS, IMPORT_ROW_PROBLEMS } from '../../../domain/imports.ts';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, IMPORT_EXPRESSIONS_MAX, IMPORT_FILE_MAX_BYTES, SENTENCE_MAX_CHARS } from '../../../domain/limits.ts';
import { isoDate } from '../../shared-schemas.ts';

const IMPORT_STATES = ['saving', 'preparing', 'waiting_for_credits', 'completed', 'cancelled'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

const idempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, `1..${IDEMPOTENCY_KEY_MAX} of A-Z a-z 0-9 . _ : -`);
export const importHeadersSchema = z.looseObject({ 'idempotency-key': idempotencyKey.optional() });

const expressionItem = z.union([
  z.string().max(SENTENCE_MAX_CHARS * 4),
  z.object({
    text: z.string().max(SENTENCE_MAX_CHARS * 4),
    context: z
      .string()
      .max(SENTENCE_MAX_CHARS * 4)
      .optional(),
  }),
]);

/** A list of expressions (the web app's paste, `lcs capture < file`, an agent); files go to /api/library/imports/file. */
export const importRequestSchema = z.object({
  expressions: z
    .array(expressionItem)
    .min(1)
    .max(IMPORT_EXPRESSIONS_MAX * 2)
    .meta({
      description:
        `The expressions, one per item: a string, or { text, context } with the sentence it was met in. Up to ` +
        `${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')} once cleaned and the list's own duplicates dropped; a text longer than a card's limit is reported, ` +
        `not imported.`,
    }),
  source: z.string().max(200).optional().meta({ description: 'What the list is, for the learner (a file name).' }),
});
export const importInputSchema = importRequestSchema.extend({ idempotencyKey: idempotencyKey.optional() });

export const importFileQuerySchema = z.object({
  format: z.enum(IMPORT_FORMATS).optional().meta({ description: 'The file’s format; detected when left out (Kindle’s vocab.db by its SQLite header).' }),
  column: z.string().max(200).optional().meta({ description: 'CSV/TSV: the column holding the expressions, a header name or a 1-based number.' }),
  header: z.enum(['true', 'false']).optional().meta({ description: 'CSV/TSV: whether the first row names the columns.' }),
  deck: z
    .union([z.string().max(200), z.array(z.string().max(200)).max(100)])
    .optional()
    .meta({ description: 'Anki packages: a deck to read, with its subdecks (repeat the parameter for several); every deck when left out.' }),
  field: z.string().max(200).optional().meta({ description: 'Anki packages: the field holding the expression; each note type’s first field when left out.' }),
  sentenceField: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Anki packages: a field holding the sentence the expression was met in, kept as the card’s context.' }),
  history: z
    .enum(['true', 'false'])
    .optional()
    .meta({
      description:
        'Anki packages: bring each card’s reviews; its schedule (due date) is computed from them with your FSRS parameters. ' +
        'A card suspended in Anki is left out (a card here is always in practice; said as a `suspended` problem), ' +
        'a buried one is due tomorrow at the earliest.',
    }),
  bookTitles: z.enum(['true', 'false']).optional().meta({ description: 'KOReader: keep each word’s book title with its row (left out unless "true").' }),
  fileName: z.string().max(200).optional(),
});

export const importIdSchema = z.object({ importId: z.uuid() });

const problemSchema = z.object({ line: z.number().int(), code: z.enum(IMPORT_ROW_PROBLEMS), message: z.string() });
const skippedSchema = z.object({
  duplicatesInFile: z.number().int(),
  tooLong: z.number().int(),
  invalid: z.number().int(),
  otherLanguage: z.number().int(),
});

const importCountsSchema = z.object({
  total: z.number().int().meta({ description: 'Expressions in the import (after the file’s own duplicates).' }),
  saved: z.number().int().meta({ description: 'New cards saved.' }),
  reused: z.number().int().meta({ description: 'Expressions already in the library: the existing card is kept.' }),
  prepared: z.number().int().meta({ description: 'New cards whose preparation is done.' }),
  preparing: z.number().int(),
  waiting: z.number().int().meta({ description: 'Saved new cards whose preparation has not started yet (paced within your model budget).' }),
  waitingForCredits: z
    .number()
    .int()
    .meta({ description: 'New cards the import will prepare once credits are back (0 once it has stopped: then they count as failed, insufficient_credits).' }),
  failed: z
    .record(z.string(), z.number().int())
    .meta({ description: 'New cards whose preparation failed for good, by error code (cards refused for credits only once the import has stopped).' }),
  removed: z.number().int().meta({ description: 'Cards deleted since they were imported.' }),
});

export const importSchema = z
  .object({
    importId: z.uuid(),
    state: z.enum(IMPORT_STATES),
    format: z.string(),
    fileName: z.string().nullable(),
    createdAt: isoDate,
    finishedAt: isoDate.nullable(),
    resumeAt: isoDate.nullable().meta({ description: 'While waiting for credits: when they renew.' }),
    counts: importCountsSchema,
    skipped: skippedSchema,
    problems: z.array(problemSchema).meta({ description: 'The first 100 problems, each naming its line.' }),
    problemsTotal: z.number().int(),
    history: z
      .object({ cards: z.number().int(), reviews: z.number().int() })
      .nullable()
      .meta({ description: 'An Anki package imported with its history: the new cards whose schedules were computed from their reviews, and those reviews.' }),
    outcome: z.object({ code: z.string(), message: z.string() }).nullable().meta({ description: 'What happened, in a sentence, once the import has stopped.' }),
  })
  .meta({ id: 'Import' });
export type ImportView = z.infer<typeof importSchema>;

export const parsedSchema = z.object({ expressions: z.number().int(), skipped: skippedSchema, problemsTotal: z.number().int() });

export const importCreatedSchema = z.object({ import: importSchema, parsed: parsedSchema, replayed: z.boolean() });
export const importEnvelopeSchema = z.object({ import: importSchema });
export const importListSchema = z.object({ items: z.array(importSchema) });

const ankiPackageSchema = z
  .object({
    decks: z.array(z.object({ name: z.string(), notes: z.number().int() })).meta({ description: 'Every deck (nested as `Parent::Child`) with its notes.' }),
    noteTypes: z.array(z.object({ name: z.string(), fields: z.array(z.string()), notes: z.number().int() })),
    chosenDecks: z.array(z.string()).meta({ description: 'The decks read (each with its subdecks).' }),
    field: z.string().nullable().meta({ description: 'The field read as the expression; null: each note type’s first.' }),
    sentenceField: z.string().nullable(),
    reviews: z.number().int().meta({ description: 'Anki’s reviews of the cards read.' }),
    history: z.boolean().meta({ description: 'Whether those reviews come with the cards (`history=true`): each new card’s schedule computed from them.' }),
  })
  .meta({ id: 'AnkiPackage', description: 'An Anki package’s decks and note types, to choose from, and what this preview read.' });

export const importPreviewSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  anki: ankiPackageSchema.optional(),
  expressions: z.number().int(),
  inLibrary: z.number().int().meta({ description: 'Expressions already in your library: their cards are kept.' }),
  skipped: skippedSchema,
  problems: z.array(problemSchema),
  problemsTotal: z.number().int(),
  first: z.array(z.object({ line: z.number().int(), text: z.string(), context: z.string().optional(), source: z.string().optional(), inLibrary: z.boolean() })),
  longLines: z.array(z.object({ line: z.number().int(), text: z.string() })).meta({ description: 'The first lines too long for a card.' }),
});

export const importRowsQuerySchema = importIdSchema.extend({ cursor: z.coerce.number().int().min(0).max(2_147_483_647).optional() });
export const importRowsSchema = z.object({
  items: z.array(
    z.object({
      position: z.number().int(),
      line: z.number().int(),
      text: z.string(),
      source: z.string().nullable().meta({ description: 'Where it was met, when the file said and you asked to keep it (a book’s title).' }),
      cardId: z.uuid().nullable(),
      outcome: z.enum(['new', 'reused']).nullable(),
      status: z.enum(['pending', 'ready', 'failed']).nullable(),
      errorCode: z.string().nullable(),
    }),
  ),
  nextCursor: z.number().int().nullable(),
});

export const IMPORT_FILE_LIMIT_TEXT = `${IMPORT_FILE_MAX_BYTES / 1_000_000} MB`;
