import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * A generated clip, shared by everyone who asks for the same text and voice (migration 0007).
 * The bytes (`content`) are deliberately not mapped: they are read in ranges by SQL.
 */
export const AudioClip = defineEntity({
  name: 'AudioClip',
  tableName: 'audio_clips',
  properties: {
    id: p.uuid().primary(),
    audioKey: p.text(),
    engine: p.text(),
    voice: p.text(),
    model: p.text(),
    status: p.enum(['pending', 'ready', 'failed'] as const),
    pendingText: p.text().nullable(),
    requestedBy: p.uuid().nullable(),
    attempt: p.integer(),
    contentType: p.text().nullable(),
    byteLength: p.integer().nullable(),
    providerCostUsd: p.decimal().nullable(),
    errorCode: p.text().nullable(),
    createdAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});

/** Who asked for a clip, for which card or sentence: this link is what grants access. */
export const AudioRequest = defineEntity({
  name: 'AudioRequest',
  tableName: 'audio_requests',
  properties: {
    id: p.bigint().primary(),
    userId: p.uuid(),
    audioId: p.uuid(),
    cardId: p.uuid().nullable(),
    sentenceId: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});

export const audioEntities = [AudioClip, AudioRequest];
