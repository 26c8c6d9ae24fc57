import { Readable } from 'node:stream';
import { z } from 'zod';
import { contentRange, decideRange, unsatisfiedRange } from './byte-range.ts';
import { AppError } from '../../domain/problems.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';
import { audioParamsSchema } from './schemas.ts';
import { AUDIO_STREAM_CHUNK_BYTES, audioByteStream, audioBytes, audioContentInfo } from './service.ts';

/** Documents the binary answer; the body is a Buffer or stream, which Fastify sends without serializing. */
const audioBytesResponse = (description: string) => ({
  description,
  content: { 'audio/*': { schema: z.string().meta({ format: 'binary', description: 'The clip in its `contentType`, e.g. audio/mpeg or audio/wav.' }) } },
});

/**
 * The clip's bytes with HTTP ranges: a REST route of its own rather than an operation, as its
 * answer is binary and streamed (tRPC clients fetch the `url` of the clip).
 */
export function audioContentRoute(app: App, { orm }: AppDeps) {
  app.get('/api/audio/:audioId/content', {
    config: { auth: 'read' },
    schema: {
      operationId: 'audio.content', tags: ['audio'], summary: 'The audio bytes (HTTP range requests supported)', params: audioParamsSchema,
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
