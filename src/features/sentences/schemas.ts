import { z } from 'zod';
import { SENTENCE_MAX_CHARS, SENTENCES_MAX_PAGE_SIZE, SENTENCES_PAGE_SIZE_DEFAULT } from '../../domain/limits.ts';
import { cleanCaptureText, cleanedLengthPattern, countCodePoints } from '../../domain/normalise.ts';
import { isoDate, languageTagOutput } from '../shared-schemas.ts';

/** Stored as shown: NFC, whitespace collapsed, trimmed; 1..SENTENCE_MAX_CHARS code points after that. */
const originalText = z
  .string()
  .regex(cleanedLengthPattern(SENTENCE_MAX_CHARS), `1..${SENTENCE_MAX_CHARS} characters once trimmed and whitespace collapsed`)
  .transform(cleanCaptureText)
  .refine((text) => text.length > 0, 'must not be blank')
  .refine((text) => countCodePoints(text) <= SENTENCE_MAX_CHARS, `at most ${SENTENCE_MAX_CHARS} characters`)
  .meta({ description: `1..${SENTENCE_MAX_CHARS} characters (Unicode code points), after trimming and collapsing whitespace.` });

export const createSentenceSchema = z.object({ original_text: originalText });

export const createSentenceQuerySchema = z.object({
  mode: z.enum(['sync', 'async']).optional().meta({ description: 'async needs the header `X-Service-Async: 1` too; otherwise sync.' }),
});

export const listSentencesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(SENTENCES_MAX_PAGE_SIZE).default(SENTENCES_PAGE_SIZE_DEFAULT),
});

export const sentenceSchema = z
  .object({
    id: z.uuid(),
    original_text: z.string(),
    translation: z.string().nullable(),
    status: z.enum(['pending', 'translated', 'failed']),
    native_language: languageTagOutput,
    created_at: isoDate,
    waiting: z
      .object({ code: z.literal('service_unavailable'), message: z.string(), since: isoDate })
      .optional()
      .meta({
        description:
          'Only when an async sentence is pending and its translation waits out an outage of the language model: it is retried by itself, for up to 30 ' +
          'minutes.',
      }),
  })
  .meta({ id: 'Sentence' });

export const sentenceEnvelopeSchema = z.object({ sentence: sentenceSchema });

export const sentencePageSchema = z.object({
  items: z.array(sentenceSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

/** tRPC: one input instead of query + header (a first-party page has no batch uploads to hide). */
export const createSentenceInputSchema = createSentenceSchema.extend({ mode: z.enum(['sync', 'async']).default('sync') });

export type SentenceView = z.input<typeof sentenceSchema>;
export type SentencePage = z.input<typeof sentencePageSchema>;
