import { defineEntity, p } from '@mikro-orm/postgresql';

/** A sentence captured through /api/sentences (table `sentences`; audio reads it by id). */
export const Sentence = defineEntity({
  name: 'Sentence',
  tableName: 'sentences',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    originalText: p.text(),
    /** normaliseExpression(originalText); unique per user. */
    dedupKey: p.text(),
    translation: p.text().nullable(),
    status: p.enum(['pending', 'translated', 'failed'] as const),
    nativeLanguage: p.string(),
    mode: p.enum(['sync', 'async'] as const),
    attempt: p.integer(),
    errorCode: p.string().nullable(),
    creditsCharged: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const sentencesEntities = [Sentence];
