/**
 * The MCP tools: each one API call (or a few, for page translation) through the shared REST client.
 * Their names are public (agents' configurations name them), so they stay; their descriptions use
 * the glossary's words (docs/glossary.md).
 * Input schemas are the API's own zod schemas, so an agent is told the same rules the service
 * enforces; results are structured content beside a short text.
 */
import { z } from 'zod';
import { IMPORT_EXPRESSIONS_MAX, LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { replayForecastSchema } from '../../../src/features/replay/schemas.ts';
import { walletSchema } from '../../../src/features/credits/schemas.ts';
import { captureResultSchema, captureSchema, cardDetailSchema, cardIdInputSchema, cardSchema, listQuerySchema } from '../../../src/features/library/schemas.ts';
import { createSentenceSchema, sentenceSchema } from '../../../src/features/sentences/schemas.ts';
import { pageTranslationRequestSchema } from '../../../src/features/page-translation/schemas.ts';
import { draftRequestSchema as workRequestSchema, draftSchema as workResponseSchema } from '../../../src/features/drafts/schemas.ts';
import type { Card } from '../context.ts';
import { searchLibrary } from '../library.ts';
import { getImport as getImportView, importList, readImportFile, uploadImport } from '../imports.ts';
import { importFileQuerySchema, importRequestSchema, importSchema, parsedSchema } from '../../../src/features/library/imports/schemas.ts';
import type { Api } from '../service.ts';
import { translateTexts } from '../translate.ts';

export interface ToolDefinition {
  description: string;
  /** Only read tools are offered to a read-scope token. */
  writes: boolean;
  inputSchema: z.ZodRawShape;
  outputSchema: z.ZodRawShape;
  /** Called with the input as validated by `inputSchema` (the MCP SDK validates before calling). */
  run(api: Api, input: unknown): Promise<{ structured: Record<string, unknown>; text: string }>;
}

/** A tool whose `run` reads its input as its input schema types it. */
function tool<S extends z.ZodRawShape>(
  definition: Omit<ToolDefinition, 'inputSchema' | 'run'> & {
    inputSchema: S;
    run(api: Api, input: z.output<z.ZodObject<S>>): ReturnType<ToolDefinition['run']>;
  },
): ToolDefinition {
  return definition;
}

const cardText = (card: Pick<Card, 'text' | 'enrichmentStatus' | 'enrichment'>) =>
  `"${card.text}" (${card.enrichmentStatus})${card.enrichment ? `: ${card.enrichment.translation}` : ''}`;

const pageTranslation = pageTranslationRequestSchema.shape;
const draftRequest = workRequestSchema.shape;

export const tools: Record<string, ToolDefinition> = {
  import_expressions: tool({
    description:
      "Import a list of English expressions into the learner's library at once (up to 10,000): each becomes a card (an expression already there reuses its " +
      "card), saved at once and prepared in the background at the pace the learner's budget allows. Returns the import id: follow it with get_import. The " +
      'same list again is the same import.',
    writes: true,
    inputSchema: {
      expressions: z
        .array(z.string())
        .min(1)
        .max(IMPORT_EXPRESSIONS_MAX * 2),
      source: importRequestSchema.shape.source,
    },
    outputSchema: { importId: z.string(), state: z.string(), counts: importSchema.shape.counts, parsed: parsedSchema },
    async run(api, { expressions, source }) {
      const created = await importList(api, expressions, source);
      const view = created.import;
      return {
        structured: { importId: view.importId, state: view.state, counts: view.counts, parsed: created.parsed },
        text:
          `${created.replayed ? 'Already imported' : 'Importing'} ${created.parsed.expressions} expressions [importId ${view.importId}]; follow it ` +
          `with get_import.`,
      };
    },
  }),
  import_file: tool({
    description:
      "Import a file on this machine into the learner's library: an Anki package (.apkg, .colpkg) with its decks' notes and, when asked, their " +
      "reviews and due dates; KOReader's vocabulary_builder.sqlite3 with each word's sentence; a Kindle vocab.db; CSV, TSV or plain lines. Each " +
      'expression becomes a card, prepared in the background at the pace the budget allows. Returns the import id: follow it with get_import. The ' +
      'same file with the same choices again is the same import.',
    writes: true,
    inputSchema: {
      path: z.string().min(1).max(4096).meta({ description: 'The file’s path on the machine this server runs on (absolute, or from its working directory).' }),
      format: importFileQuerySchema.shape.format,
      column: importFileQuerySchema.shape.column,
      decks: z
        .array(z.string().max(200))
        .max(100)
        .optional()
        .meta({ description: 'Anki packages: the decks to read, each with its subdecks; all when left out.' }),
      field: importFileQuerySchema.shape.field,
      sentenceField: importFileQuerySchema.shape.sentenceField,
      history: z.boolean().optional().meta({ description: importFileQuerySchema.shape.history.description }),
      bookTitles: z.boolean().optional().meta({ description: importFileQuerySchema.shape.bookTitles.description }),
    },
    outputSchema: { importId: z.string(), state: z.string(), counts: importSchema.shape.counts, parsed: parsedSchema },
    async run(api, { path, ...options }) {
      const created = await uploadImport(api, path, await readImportFile(path), options);
      const view = created.import;
      return {
        structured: { importId: view.importId, state: view.state, counts: view.counts, parsed: created.parsed },
        text:
          `${created.replayed ? 'Already imported' : 'Importing'} ${created.parsed.expressions} expressions from ${path} [importId ${view.importId}]; ` +
          'follow it with get_import.',
      };
    },
  }),
  get_import: tool({
    description:
      'The progress of an import: total, saved, reused, prepared, failed by code, waiting for credits, its state, and once it stops what happened in a ' +
      'sentence.',
    writes: false,
    inputSchema: { importId: z.uuid() },
    outputSchema: { import: importSchema },
    async run(api, { importId }) {
      const view = await getImportView(api, importId);
      const c = view.counts;
      return {
        structured: { import: view },
        text:
          view.outcome?.message ?? `${view.state}: ${c.prepared} of ${c.saved} prepared, ${c.preparing} preparing, ${c.waiting} waiting, ${c.reused} reused.`,
      };
    },
  }),
  capture_expression: tool({
    description:
      "Capture an English expression into the learner's library as a card. Its preparation (translation, correction, usage guidance) runs in the " +
      'background (get_card shows it once ready); capturing the same expression again reuses its card. Give `context`, the sentence it was met in ' +
      '(containing it), to have it explained in the sense that sentence uses; on a known card the sentence is added to its examples, free.',
    writes: true,
    inputSchema: captureSchema.shape,
    outputSchema: captureResultSchema.shape,
    async run(api, { text, context, sourceUrl }) {
      // The schema's fields as given (a sourceUrl without a context is the service's 400 to explain).
      const body = { text, ...(context ? { context } : {}), ...(sourceUrl ? { sourceUrl } : {}) };
      const { card, reused } = (await api.call((c) => c.POST('/api/library', { body }))) as { card: Card; reused?: boolean };
      return {
        structured: { card, reused: reused === true },
        text: `${reused ? 'Already in the library' : 'Captured'}: ${cardText(card)} [cardId ${card.cardId}]`,
      };
    },
  }),
  save_sentence: tool({
    description: "Save an English sentence and translate it into the learner's native language.",
    writes: true,
    inputSchema: { text: createSentenceSchema.shape.original_text },
    outputSchema: { sentence: sentenceSchema },
    async run(api, { text }) {
      const { sentence } = await api.call((c) => c.POST('/api/sentences', { body: { original_text: text } }));
      return {
        structured: { sentence },
        text: `Saved: "${sentence.original_text}"${sentence.translation ? ` → ${sentence.translation}` : ` (${sentence.status})`}`,
      };
    },
  }),
  search_library: tool({
    description: "Search the learner's library (text and translation, case- and accent-insensitive), newest first.",
    writes: false,
    inputSchema: {
      query: listQuerySchema.shape.query,
      status: cardSchema.shape.enrichmentStatus.optional().describe('Only cards whose preparation is in this state.'),
      limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(20).describe('At most this many cards.'),
    },
    outputSchema: { items: z.array(cardSchema) },
    async run(api, { query, status, limit }) {
      const shown = await searchLibrary(api, { query, status, limit });
      return { structured: { items: shown }, text: shown.length ? shown.map((card) => `- ${cardText(card)} [${card.cardId}]`).join('\n') : 'No cards match.' };
    },
  }),
  get_card: tool({
    description: 'One card with its preparation (translation, usage guidance, examples) and its schedule.',
    writes: false,
    inputSchema: cardIdInputSchema.shape,
    outputSchema: { card: cardDetailSchema },
    async run(api, { cardId }) {
      const { card } = await api.call((c) => c.GET('/api/library/{cardId}', { params: { path: { cardId } } }));
      return { structured: { card }, text: `${cardText(card)}${card.enrichment ? `. Usage: ${card.enrichment.usage.guidance}` : ''}` };
    },
  }),
  translate_texts: tool({
    description: 'Page translation: translate texts in order (any number, split into valid batches). Asking again for the same texts costs nothing.',
    writes: true,
    inputSchema: {
      texts: z.array(z.string()).min(1).describe('The texts, translated in order.'),
      target_language: pageTranslation.target_language,
      source_language: pageTranslation.source_language.optional(),
    },
    outputSchema: { translations: z.array(z.object({ text: z.string(), detectedSourceLanguage: z.string() })), creditsCharged: z.number().int() },
    async run(api, { texts, target_language, source_language }) {
      const result = await translateTexts(api, texts, target_language, source_language ?? 'auto');
      return { structured: result, text: result.translations.map((t) => t.text).join('\n') };
    },
  }),
  draft_english: tool({
    description: 'Draft English from what the learner wants to say (any language), optionally using expressions from their library.',
    writes: true,
    inputSchema: { prompt: draftRequest.prompt, tone: draftRequest.tone.optional(), use_library: draftRequest.useLibrary.optional() },
    outputSchema: workResponseSchema.shape,
    async run(api, { prompt, tone, use_library }) {
      // What is left out takes the service's default.
      const draft = await api.call((c) => c.POST('/api/work', { body: { prompt, tone, useLibrary: use_library } }));
      return { structured: draft, text: draft.english };
    },
  }),
  get_credits: tool({
    description: "The learner's credit balance, plan and period.",
    writes: false,
    inputSchema: {},
    outputSchema: walletSchema.shape,
    async run(api) {
      const wallet = await api.call((c) => c.GET('/api/credits'));
      return {
        structured: wallet,
        text: `${wallet.balance - wallet.held} credits available of ${wallet.monthlyAllowance} (${wallet.plan} plan) until ${wallet.periodEnd}.`,
      };
    },
  }),
  due_for_practice: tool({
    description: 'How many cards are due for practice now, and when the next one falls due.',
    writes: false,
    inputSchema: {},
    outputSchema: replayForecastSchema.pick({ dueNow: true, nextDueAt: true, newCards: true }).shape,
    async run(api) {
      const { dueNow, nextDueAt, newCards } = await api.call((c) => c.GET('/api/replay/forecast'));
      return { structured: { dueNow, nextDueAt, newCards }, text: `${dueNow} due now, ${newCards} new; next due ${nextDueAt ?? 'none scheduled'}.` };
    },
  }),
};
