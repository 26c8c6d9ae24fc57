import { defineOperation } from '../../http/operation.ts';
import { audioEnvelopeSchema, audioParamsSchema, audioRequestSchema, type AudioRequest } from './schemas.ts';
import { getAudio, requestAudio, type AudioSubject } from './service.ts';
import { speechEngineFor } from './speech/engine.ts';

const tag = 'audio';

const audioId = '$response.body#/audio/audioId';
const clipLinks = {
  get: { operationId: 'audio.get', parameters: { 'path.audioId': audioId } },
  content: { operationId: 'audio.content', parameters: { 'path.audioId': audioId } },
};

const subjectOf = (body: AudioRequest): AudioSubject =>
  body.cardId !== undefined ? { cardId: body.cardId } : { sentenceId: body.sentenceId };

/**
 * Audio at /api/audio and tRPC `audio.*`; model-backed (a generation may be paid) without needing
 * languages. The bytes are a REST route of their own (content-route.ts).
 */
export const audioOperations = {
  request: defineOperation({
    tag, summary: 'Get or generate audio for a card or sentence', auth: 'write', modelBacked: true,
    input: audioRequestSchema, output: audioEnvelopeSchema,
    // A ready clip is 200 (free); one being generated, for this request or another, 202.
    rest: {
      method: 'POST', path: '/api/audio', status: ({ audio }) => (audio.status === 'ready' ? 200 : 202), responses: { 200: audioEnvelopeSchema, 202: audioEnvelopeSchema }, problems: [402, 404],
      links: { 200: clipLinks, 202: clipLinks },
    },
    handler: async ({ deps: { orm, temporal, config }, principal, request }, input) => ({
      audio: await requestAudio({ orm, temporal, config, engine: speechEngineFor(config.tts), logger: request.log }, principal.userId, subjectOf(input)),
    }),
  }),
  get: defineOperation({
    tag, summary: 'An audio clip you requested', auth: 'read',
    input: audioParamsSchema, output: audioEnvelopeSchema,
    rest: { method: 'GET', path: '/api/audio/:audioId', input: 'params', problems: [404] },
    handler: async ({ em, principal }, { audioId }) => ({ audio: await getAudio(em, principal.userId, audioId) }),
  }),
};
