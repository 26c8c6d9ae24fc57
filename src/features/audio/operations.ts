import { Readable } from 'node:stream';
import { z } from 'zod';
import { contentRange, decideRange, unsatisfiedRange } from '../../domain/byte-range.ts';
import { AppError } from '../../domain/problems.ts';
import { AUDIO_STREAM_CHUNK_BYTES, audioByteStream, audioBytes, audioContentInfo, getAudio, requestAudio, type AudioSubject } from './service.ts';
import { speechEngineFor } from './speech/engine.ts';
import { RETENTION_DEFAULTS } from '../../config.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { audioEnvelopeSchema, audioParamsSchema, audioRequestSchema, type AudioRequest } from './schemas.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';

export const subjectOf = (body: AudioRequest): AudioSubject =>
  body.cardId !== undefined ? { cardId: body.cardId } : { sentenceId: body.sentenceId! };

/** Documents the binary answer; the body is a Buffer or stream, which Fastify sends without serializing. */
const audioBytesResponse = (description: string) => ({
  description,
  content: { 'audio/*': { schema: z.string().meta({ format: 'binary', description: 'The clip in its `contentType`, e.g. audio/mpeg or audio/wav.' }) } },
});

export async function audioRoutes(app: App, { orm, temporal, config }: AppDeps) {
  const engine = speechEngineFor(config.tts);

  app.post('/api/audio', {
    config: { modelBacked: true },
    schema: {
      tags: ['audio'], summary: 'Get or generate audio for a card or sentence', body: audioRequestSchema,
      response: { 200: audioEnvelopeSchema, 202: audioEnvelopeSchema, ...problems(...AUTHED, 402, 404) },
    },
  }, async (request, reply) => {
    const { status, audio } = await requestAudio({ orm, temporal, config, engine, logger: request.log }, requirePrincipal(request).userId, subjectOf(request.body));
    return reply.code(status).send({ audio });
  });

  app.get('/api/audio/:audioId', {
    schema: { tags: ['audio'], summary: 'An audio clip you requested', params: audioParamsSchema, response: { 200: audioEnvelopeSchema, ...problems(...AUTHED, 404) } },
  }, async (request) => ({ audio: await getAudio(orm.em.fork(), requirePrincipal(request).userId, request.params.audioId) }));

  app.get('/api/audio/:audioId/content', {
    schema: {
      tags: ['audio'], summary: 'The audio bytes (HTTP range requests supported)', params: audioParamsSchema,
      headers: z.looseObject({ range: z.string().optional(), 'if-range': z.string().optional() }),
      response: { 200: audioBytesResponse('The whole clip'), 206: audioBytesResponse('The requested byte range'), ...problems(...AUTHED, 404, 409, 416) },
    },
  }, async (request, reply) => {
    const { audioId } = request.params;
    const em = orm.em.fork();
    const { contentType, size } = await audioContentInfo(em, requirePrincipal(request).userId, audioId);
    // A clip never changes once ready, so its id is a strong validator.
    const etag = `"${audioId}"`;
    reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'private, max-age=86400');
    const ifRange = request.headers['if-range'];
    const decision = ifRange !== undefined && ifRange !== etag ? { kind: 'full' as const } : decideRange(request.headers.range, size);
    if (decision.kind === 'unsatisfiable') {
      reply.header('content-range', unsatisfiedRange(size));
      throw new AppError('range_not_satisfiable', `The clip has ${size} bytes; the requested range is outside it.`);
    }
    const range = decision.kind === 'partial' ? decision.range : { start: 0, end: size - 1 };
    if (decision.kind === 'partial') reply.code(206).header('content-range', contentRange(range, size));
    const length = size === 0 ? 0 : range.end - range.start + 1;
    reply.type(contentType).header('content-length', length);
    // Binary body: outside the JSON response schemas, hence the casts. A long body is streamed
    // slice by slice, so concurrent downloads do not each hold a whole clip in memory.
    if (length > AUDIO_STREAM_CHUNK_BYTES) return reply.send(Readable.from(audioByteStream(orm, audioId, range)) as never);
    return reply.send((length === 0 ? Buffer.alloc(0) : await audioBytes(em, audioId, range.start, range.end)) as never);
  });
}

export const audioReference = `## Audio
\`POST /api/audio\` with exactly one of \`{ cardId }\` or \`{ sentenceId }\` (one of your cards or
sentences) → \`{ audio }\`, \`audio = { audioId, status: "pending"|"ready"|"failed", contentType, url }\`.
- What is spoken: a card's English (the corrected text when its preparation corrected it, else the text
  as captured), or a sentence's \`original_text\`.
- One clip per spoken text and voice: the key is a hash of the text (Unicode NFC, trimmed, whitespace
  collapsed; case and punctuation kept) with the engine, voice and model. The first request for a key
  starts generation → 202 \`status: "pending"\`; poll \`GET /api/audio/:audioId\`. Any later request for the
  same text and voice, by anyone: 200 when ready, 202 while still generating — both free.
- Charging: the request that starts a generation is charged 5 × the provider cost
  (\`ceil(cost × 5 × 1000)\` credits, kind \`audio\`), once, and only when the generation succeeds.
  Starting a paid generation with a balance of 0 → 402. A failed generation costs nothing
  (\`status: "failed"\`); asking again starts it again.
- Quota: each user may start at most \`AUDIO_QUOTA_CLIPS\` generations (default 100) in any sliding
  \`AUDIO_QUOTA_WINDOW_HOURS\` (default 24), whatever the engine — the local one is free, so credits alone
  would not bound storage. Asking again for a failed clip is a new generation; clips that exist (ready,
  or being generated for anyone) are served as before and not counted. Beyond the quota → 429
  \`audio_quota_exceeded\` with \`Retry-After\` (seconds until the oldest start in the window leaves
  it): a limit on how many per time, hence 429 and not 402, which money would not lift.
- Engines: an OpenAI-compatible speech endpoint when \`TTS_BASE_URL\` is configured (MP3, cost = characters
  × \`TTS_COST_PER_MILLION_CHARS_USD\` / 1,000,000); otherwise the local espeak-ng engine (WAV, free).
  The text is sent to a remote engine only for generation, and never logged.
- Access: \`GET /api/audio/:audioId\` and its content answer only users who requested that clip (for one
  of their cards or sentences); deleting the card or sentence removes that link. Otherwise 404. A clip
  nobody links to any more is deleted ${RETENTION_DEFAULTS.unlinkedAudioDays} days after its last link went (by default; operators set
  \`RETENTION_UNLINKED_AUDIO_DAYS\`); asking for the same text later generates it again, and charges for it.
- \`GET /api/audio/:audioId/content\` serves the bytes with their \`Content-Type\`, \`Accept-Ranges: bytes\`
  and a strong \`ETag\`. One byte range per request: \`Range: bytes=0-99\`, \`bytes=100-\` or \`bytes=-50\`
  → 206 with \`Content-Range\`; a range starting past the end → 416 with \`Content-Range: bytes */<size>\`;
  several ranges or an \`If-Range\` that does not match → 200 with the whole clip. While the clip is
  pending or failed → 409 \`conflict\`.`;
