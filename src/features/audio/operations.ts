import { z } from 'zod';
import { defineOperation, defineStreamOperation, restParts } from '../../http/operation.ts';
import { audioContent, contentHeadersSchema, contentResponses } from './content.ts';
import { audioEnvelopeSchema, audioParamsSchema, audioRequestSchema, type AudioRequest } from './schemas.ts';
import { getAudio, requestAudio, type AudioSubject } from './service.ts';

const tag = 'audio';

const audioId = '$response.body#/audio/audioId';
const clipLinks = {
  get: { operationId: 'audio.get', parameters: { 'path.audioId': audioId } },
  content: { operationId: 'audio.content', parameters: { 'path.audioId': audioId } },
};

const subjectOf = (body: AudioRequest): AudioSubject => (body.cardId !== undefined ? { cardId: body.cardId } : { sentenceId: body.sentenceId });

/**
 * Audio at /api/audio and tRPC `audio.*`; model-backed (a generation may be paid) without needing
 * languages. The bytes are REST only (a stream, ./content.ts).
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
