import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../domain/problems.ts';
import type { OperationContext, StreamedAnswer, StreamedResponse } from '../../http/operation.ts';
import { contentRange, decideRange, unsatisfiedRange } from './byte-range.ts';
import { AUDIO_STREAM_CHUNK_BYTES, audioByteStream, audioBytes, audioContentInfo } from './service.ts';

/** The request headers a range request reads. */
export const contentHeadersSchema = z.looseObject({ range: z.string().optional(), 'if-range': z.string().optional() });

/** Documents the binary answer; the body is a Buffer or stream, which Fastify sends without serializing. */
const audioBytesResponse = (description: string): StreamedResponse => ({
  description,
  content: { 'audio/*': { schema: z.string().meta({ format: 'binary', description: 'The clip in its `contentType`, e.g. audio/mpeg or audio/wav.' }) } },
});

/** The content's answers in the API reference: the whole clip, or the range asked for. */
export const contentResponses: Record<number, StreamedResponse> = {
  200: audioBytesResponse('The whole clip'),
  206: audioBytesResponse('The requested byte range'),
};

/**
 * A clip's bytes with HTTP ranges (tRPC clients fetch the `url` of the clip): the whole clip, or
 * the range asked for (206), unless `If-Range` names another version. A clip never changes once
 * ready, so its id is a strong validator. 404 when it is not the user's, 409 while not ready, 416
 * for a range outside it.
 */
export async function audioContent(
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
