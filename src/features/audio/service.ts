import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, run } from '../../db/sql.ts';
import { audioKey, spokenText } from './audio-key.ts';
import { byteChunks, type ByteRange } from './byte-range.ts';
import { creditsForCost } from '../../domain/credits.ts';
import { AppError } from '../../domain/problems.ts';
import { WORKFLOW_KINDS, workflowId } from '../../temporal/workflow-ids.ts';
import { spendReporter } from '../../model/provider-spend.ts';
import type { FeatureContext } from '../context.ts';
import { holdLifetimeMs, type PaidCall, reportLostCalls } from '../credits/paid-call.ts';
import { reserveCredits } from '../credits/holds.ts';
import { charge } from '../credits/wallet.ts';
import { cardAnswer } from '../library/card-reads.ts';
import { consumeAudioGeneration, lockAudioQuota } from './quota.ts';
import type { AudioView } from './schemas.ts';
import { speechEngineFor } from './speech/configured-engine.ts';
import type { SpeechAudio, SpeechEngine } from './speech/engine.ts';
import { SPEECH_REQUEST_TIMEOUT_MS } from './speech/openai.ts';

type AudioStatus = AudioView['status'];

export type AudioSubject = { cardId: string; sentenceId?: undefined } | { sentenceId: string; cardId?: undefined };

interface ClipRow {
  id: string;
  status: AudioStatus;
  content_type: string | null;
}

const audioUrl = (audioId: string) => `/api/audio/${audioId}/content`;
const view = (row: ClipRow): AudioView => ({ audioId: row.id, status: row.status, contentType: row.content_type, url: audioUrl(row.id) });

/**
 * POST /api/audio. One clip per spoken text + engine + voice + model, shared by everyone:
 * - ready → 200, free;
 * - pending (someone's generation is running) → 202, free;
 * - new, or failed before → 202 and a generation starts (workflow `audio/<audioId>`); whoever
 *   started it is charged 5 × the provider cost once it succeeds, never if it fails, and it
 *   counts against their generation quota (audio-quota.ts; 429 when used up).
 * Every request links the clip to the requester (and the card or sentence), which is what lets
 * them read it. The text is the card's English (corrected if its preparation corrected it) or
 * the sentence's original text, spoken by the configured engine.
 */
export async function requestAudio(ctx: FeatureContext, userId: string, subject: AudioSubject): Promise<AudioView> {
  const { em, workflows } = ctx;
  const engine = speechEngineFor(ctx.config.tts);
  const { clip, lostCalls, generate } = await em.transactional(async (tx) => {
    await lockAudioQuota(tx, userId);
    const text = spokenText(await subjectText(tx, userId, subject));
    const key = audioKey({ text, engine: engine.engine, voice: engine.voice, model: engine.model });

    const found = await insertOrLockClip(tx, { key, engine, text, userId });
    let clip: ClipRow | undefined = found.clip;
    let generate = found.inserted;
    if (!generate && clip.status === 'failed') {
      [clip] = await allRows<ClipRow>(
        tx,
        sql`UPDATE audio_clips SET status = 'pending', pending_text = ${text}, requested_by = ${userId}, attempt = attempt + 1,
           error_code = NULL, finished_at = NULL WHERE id = ${clip.id} RETURNING id, status, content_type`,
      );
      generate = true;
    }
    // A generation that costs money holds its cost first (402, nothing started); cached is free.
    const { lostCalls } =
      generate && engine.costUsd(text) !== '0' ? await reserveCredits(tx, speechHold(userId, clip!.id, engine.costUsd(text))) : { lostCalls: [] };
    if (generate) await consumeAudioGeneration(tx, userId, ctx.config.audioQuota);

    await run(
      tx,
      sql`INSERT INTO audio_requests (user_id, audio_id, card_id, sentence_id) VALUES (${userId}, ${clip!.id}, ${subject.cardId ?? null},
           ${subject.sentenceId ?? null}) ON CONFLICT DO NOTHING`,
    );
    // Started by the worker's outbox relay, woken after the commit.
    if (generate) {
      await workflows.enqueue(
        tx,
        workflows.start('generateAudio', [clip!.id], {
          // Per clip, not per text: a clip housekeeping deleted is made anew under a new id, and
          // the completed run of the old one must not stand in for its generation.
          workflowId: workflowId(WORKFLOW_KINDS.audio, clip!.id),
          userId,
          kind: WORKFLOW_KINDS.audio,
        }),
      );
    }
    return { clip: clip!, lostCalls, generate };
  });
  reportLostCalls(spendReporter(ctx.log), lostCalls);
  if (generate) workflows.wakeRelay();
  return view(clip);
}

/**
 * The clip for this key: inserted, or the existing one locked (so that two requests for a failed
 * clip restart it once). Housekeeping may delete an unlinked clip between the two statements;
 * the insert is then simply tried again.
 */
async function insertOrLockClip(tx: Em, c: { key: string; engine: SpeechEngine; text: string; userId: string }): Promise<{ clip: ClipRow; inserted: boolean }> {
  for (let round = 0; round < 3; round++) {
    const inserted = await firstRow<ClipRow>(
      tx,
      sql`INSERT INTO audio_clips (id, audio_key, engine, voice, model, status, pending_text, requested_by)
       VALUES (${randomUUID()}, ${c.key}, ${c.engine.engine}, ${c.engine.voice}, ${c.engine.model}, 'pending', ${c.text}, ${c.userId})
       ON CONFLICT (audio_key) DO NOTHING RETURNING id, status, content_type`,
    );
    if (inserted) return { clip: inserted, inserted: true };
    const existing = await firstRow<ClipRow>(tx, sql`SELECT id, status, content_type FROM audio_clips WHERE audio_key = ${c.key} FOR UPDATE`);
    if (existing) return { clip: existing, inserted: false };
  }
  throw new AppError('service_unavailable', 'The audio could not be requested just now; try again.');
}

async function subjectText(tx: Em, userId: string, subject: AudioSubject): Promise<string> {
  if (subject.cardId !== undefined) {
    const answer = await cardAnswer(tx, userId, subject.cardId);
    if (answer === null) throw new AppError('not_found', 'No such card.');
    return answer;
  }
  const sentence = await firstRow<{ original_text: string }>(
    tx,
    sql`SELECT original_text FROM sentences WHERE id = ${subject.sentenceId} AND user_id = ${userId}`,
  );
  if (!sentence) throw new AppError('not_found', 'No such sentence.');
  return sentence.original_text;
}

/** A clip the user has asked for (for any card or sentence); anyone else's → 404. */
export async function getAudio(ctx: FeatureContext, userId: string, audioId: string): Promise<AudioView> {
  const row = await firstRow<ClipRow>(
    ctx.em,
    sql`SELECT c.id, c.status, c.content_type FROM audio_clips c
     WHERE c.id = ${audioId} AND EXISTS (SELECT 1 FROM audio_requests r WHERE r.audio_id = c.id AND r.user_id = ${userId})`,
  );
  if (!row) throw new AppError('not_found', 'No such audio.');
  return view(row);
}

export interface AudioContentInfo {
  contentType: string;
  size: number;
}

/** Type and size of a ready clip the user may read; 404 if not theirs, 409 while not ready. */
export async function audioContentInfo(ctx: FeatureContext, userId: string, audioId: string): Promise<AudioContentInfo> {
  const row = await firstRow<{ status: AudioStatus; content_type: string | null; byte_length: number | null }>(
    ctx.em,
    sql`SELECT c.status, c.content_type, c.byte_length FROM audio_clips c
     WHERE c.id = ${audioId} AND EXISTS (SELECT 1 FROM audio_requests r WHERE r.audio_id = c.id AND r.user_id = ${userId})`,
  );
  if (!row) throw new AppError('not_found', 'No such audio.');
  if (row.status !== 'ready') {
    throw new AppError('conflict', row.status === 'pending' ? 'The audio is still being generated.' : 'Generating this audio failed; request it again.');
  }
  return { contentType: row.content_type!, size: row.byte_length! };
}

/** Bytes [start, end] (inclusive) of a clip; PostgreSQL slices, so a seek never reads the whole clip. */
export async function audioBytes(ctx: FeatureContext, audioId: string, start: number, end: number): Promise<Buffer> {
  const row = await firstRow<{ chunk: Buffer }>(
    ctx.em,
    sql`SELECT substring(content FROM ${start + 1}::int FOR ${end - start + 1}::int) AS chunk FROM audio_clips WHERE id = ${audioId}`,
  );
  if (!row) throw new AppError('not_found', 'No such audio.');
  return row.chunk;
}

/** Bytes read per query when streaming a clip: what one response holds in memory at a time. */
export const AUDIO_STREAM_CHUNK_BYTES = 256 * 1024;

/** A clip's bytes in `range`, one bounded slice per query: a whole clip never sits in memory. */
export async function* audioByteStream(ctx: FeatureContext, audioId: string, range: ByteRange): AsyncGenerator<Buffer> {
  for (const chunk of byteChunks(range, AUDIO_STREAM_CHUNK_BYTES)) yield await audioBytes(ctx, audioId, chunk.start, chunk.end);
}

// ---- Generation (called by the audio activities) ----

/**
 * The unit of work of a clip's generation, the key of its hold and of its charge: the clip's id
 * (a clip becomes ready once). A clip made anew after housekeeping deleted the old one is
 * charged again.
 */
const audioChargeKey = (audioId: string) => `audio/${audioId}`;

/** A paid generation's hold: its exact cost (price × characters), for as long as one speech request may take. */
export function speechHold(userId: string, audioId: string, costUsd: string): PaidCall {
  return {
    userId,
    key: audioChargeKey(audioId),
    task: 'speech',
    maxCredits: creditsForCost('audio', costUsd),
    lifetimeMs: holdLifetimeMs(SPEECH_REQUEST_TIMEOUT_MS),
  };
}

export interface PendingGeneration {
  audioId: string;
  audioKey: string;
  text: string;
  engine: string;
  voice: string;
  model: string;
  requestedBy: string | null;
}

/** The clip's pending generation, or null when there is none (done, failed, deleted). */
export async function pendingGeneration(ctx: FeatureContext, audioId: string): Promise<PendingGeneration | null> {
  const row = await firstRow<{ audio_key: string; pending_text: string | null; engine: string; voice: string; model: string; requested_by: string | null }>(
    ctx.em,
    sql`SELECT audio_key, pending_text, engine, voice, model, requested_by FROM audio_clips WHERE id = ${audioId} AND status = 'pending'`,
  );
  if (!row?.pending_text) return null;
  return { audioId, audioKey: row.audio_key, text: row.pending_text, engine: row.engine, voice: row.voice, model: row.model, requestedBy: row.requested_by };
}

/**
 * Marks the clip ready with its bytes and charges whoever started the generation, in one
 * transaction: audio is never stored without its charge, nor charged without being stored.
 * The charge key is the clip's id (audioChargeKey), so a retried activity is charged once.
 * False when the clip was no longer pending (failed or deleted meanwhile): nothing stored.
 */
export async function storeGeneratedAudio(ctx: FeatureContext, job: PendingGeneration, audio: SpeechAudio, costUsd: string): Promise<boolean> {
  return ctx.em.transactional(async (tx) => {
    const updated = await firstRow<{ requested_by: string | null }>(
      tx,
      sql`UPDATE audio_clips SET status = 'ready', content = ${audio.bytes}, content_type = ${audio.contentType}, byte_length = ${audio.bytes.length},
           provider_cost_usd = ${costUsd},
         pending_text = NULL, finished_at = now() WHERE id = ${job.audioId} AND status = 'pending' RETURNING requested_by`,
    );
    if (!updated) return false;
    if (!updated.requested_by) return true;
    await charge(tx, {
      userId: updated.requested_by,
      idempotencyKey: audioChargeKey(job.audioId),
      providerCostUsd: costUsd,
      kind: 'audio',
      reason: 'audio generation',
      ref: job.audioId,
    });
    return true;
  });
}

/** Ends a pending generation as failed; nothing is charged. Asking again restarts it. */
export async function markAudioFailed(ctx: FeatureContext, audioId: string, errorCode: string): Promise<void> {
  await run(
    ctx.em,
    sql`UPDATE audio_clips SET status = 'failed', error_code = ${errorCode}, pending_text = NULL, finished_at = now() WHERE id = ${audioId}
         AND status = 'pending'`,
  );
}
