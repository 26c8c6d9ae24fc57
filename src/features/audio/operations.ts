import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../domain/problems.ts';
import { defineOperation, defineStreamOperation, type OperationContext, restParts, type StreamedAnswer, type StreamedResponse } from '../../http/operation.ts';
import { contentRange, decideRange, unsatisfiedRange } from './byte-range.ts';
import { audioEnvelopeSchema, audioParamsSchema, audioRequestSchema, type AudioRequest } from './schemas.ts';
import { AUDIO_STREAM_CHUNK_BYTES, audioByteStream, audioBytes, audioContentInfo, getAudio, requestAudio, type AudioSubject } from './service.ts';

const tag = 'audio';

const audioId = '$response.body#/audio/audioId';
const clipLinks = {
  get: { operationId: 'audio.get', parameters: { 'path.audioId': audioId } },
  content: { operationId: 'audio.content', parameters: { 'path.audioId': audioId } },
};

const subjectOf = (body: AudioRequest): AudioSubject => (body.cardId !== undefined ? { cardId: body.cardId } : { sentenceId: body.sentenceId });

/** The request headers a range request reads. */
const contentHeadersSchema = z.looseObject({ range: z.string().optional(), 'if-range': z.string().optional() });

/** Documents the binary answer; the body is a Buffer or stream, which Fastify sends without serializing. */
const audioBytesResponse = (description: string): StreamedResponse => ({
  description,
  content: { 'audio/*': { schema: z.string().meta({ format: 'binary', description: 'The clip in its `contentType`, e.g. audio/mpeg or audio/wav.' }) } },
});

/** The content's answers in the API reference: the whole clip, or the range asked for. */
const contentResponses: Record<number, StreamedResponse> = {
  200: audioBytesResponse('The whole clip'),
  206: audioBytesResponse('The requested byte range'),
};

/**
 * A clip's bytes with HTTP ranges (tRPC clients fetch the `url` of the clip): the whole clip, or
 * the range asked for (206), unless `If-Range` names another version. A clip never changes once
 * ready, so its id is a strong validator. 404 when it is not the user's, 409 while not ready, 416
 * for a range outside it.
 */
async function audioContent(
  ctx: OperationContext,
  userId: string,
  request: { audioId: string; range?: string | undefined; ifRange?: string | undefined },
): Promise<StreamedAnswer> {
  const { audioId } = request;
  const { contentType, size } = await audioContentInfo(ctx, userId, audioId);
  const etag = `"${audioId}"`;
  const validators = { 'accept-ranges': 'bytes', etag, 'cache-control': 'private, max-age=86400' };
  const decision = request.ifRange !== undefined && request.ifRange !== etag ? { kind: 'full' as const } : decideRange(request.range, size);
  if (decision.kind === 'unsatisfiable') {
    // The problem (sent by the problems plugin) carries the clip's headers too, and the clip's size.
    ctx.reply.headers({ ...validators, 'content-range': unsatisfiedRange(size) });
    throw new AppError('range_not_satisfiable', `The clip has ${size} bytes; the requested range is outside it.`);
  }
  const range = decision.kind === 'partial' ? decision.range : { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : range.end - range.start + 1;
  const headers = {
    ...validators,
    ...(decision.kind === 'partial' ? { 'content-range': contentRange(range, size) } : {}),
    'content-type': contentType,
    'content-length': length,
  };
  // A long body is streamed slice by slice, so concurrent downloads do not each hold a whole clip in memory.
  if (length > AUDIO_STREAM_CHUNK_BYTES)
    return { status: decision.kind === 'partial' ? 206 : 200, headers, body: Readable.from(audioByteStream(ctx, audioId, range)) };
  return {
    status: decision.kind === 'partial' ? 206 : 200,
    headers,
    body: length === 0 ? Buffer.alloc(0) : await audioBytes(ctx, audioId, range.start, range.end),
  };
}

/**
 * Audio at /api/audio and tRPC `audio.*`; model-backed (a generation may be paid) without needing
 * languages. The bytes are REST only (a stream, `audioContent` below).
 */
export const audioOperations = {
  request: defineOperation({
    tag,
    summary: 'Get or generate audio for a card or sentence',
    auth: 'write',
    modelBacked: true,
    input: audioRequestSchema,
    output: audioEnvelopeSchema,
    // A ready clip is 200 (free); one being generated, for this request or another, 202.
    rest: {
      method: 'POST',
      path: '/api/audio',
      status: ({ audio }) => (audio.status === 'ready' ? 200 : 202),
      responses: { 200: audioEnvelopeSchema, 202: audioEnvelopeSchema },
      problems: [402, 404],
      links: { 200: clipLinks, 202: clipLinks },
    },
    handler: async (ctx, input) => ({ audio: await requestAudio(ctx, ctx.principal.userId, subjectOf(input)) }),
  }),
  get: defineOperation({
    tag,
    summary: 'An audio clip you requested',
    auth: 'read',
    input: audioParamsSchema,
    output: audioEnvelopeSchema,
    rest: { method: 'GET', path: '/api/audio/:audioId', input: 'params', problems: [404] },
    handler: async (ctx, { audioId }) => ({ audio: await getAudio(ctx, ctx.principal.userId, audioId) }),
  }),
  content: defineStreamOperation({
    tag,
    summary: 'The audio bytes (HTTP range requests supported)',
    auth: 'read',
    input: audioParamsSchema.extend({ range: z.string().optional(), ifRange: z.string().optional() }),
    rest: {
      method: 'GET',
      path: '/api/audio/:audioId/content',
      responses: contentResponses,
      problems: [404, 409, 416],
      input: restParts({
        params: audioParamsSchema,
        headers: contentHeadersSchema,
        toInput: ({ params, headers }) => ({ audioId: params.audioId, range: headers.range, ifRange: headers['if-range'] }),
      }),
    },
    stream: (ctx, request) => audioContent(ctx, ctx.principal.userId, request),
  }),
};
