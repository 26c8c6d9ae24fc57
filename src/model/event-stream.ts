import { isRecord, parseJsonExact } from './exact-json.ts';

/**
 * Some servers stream (`text/event-stream`) even when asked not to. Their chunks are put back
 * together into the one chat completion a non-streamed answer would have been: the content's
 * deltas in order, the last finish reason, model, id and usage seen. Null when the text holds no
 * chunk at all.
 */
export function assembledStream(text: string): Record<string, unknown> | null {
  let content = '';
  let finishReason: unknown = null;
  let chunks = 0;
  const whole: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice('data:'.length).trim();
    if (data === '' || data === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = parseJsonExact(data);
    } catch {
      continue;
    }
    if (!isRecord(chunk)) continue;
    // A server that fails mid-stream sends its error as a chunk: that is the answer.
    if (isRecord(chunk.error)) return chunk;
    chunks++;
    for (const key of ['id', 'model', 'usage'] as const) if (chunk[key] !== undefined && chunk[key] !== null) whole[key] = chunk[key];
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) continue;
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    if (typeof delta.content === 'string') content += delta.content;
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) finishReason = choice.finish_reason;
  }
  if (chunks === 0) return null;
  return { ...whole, choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content } }] };
}

/** Whether a response is a stream of events, by its content type or its first line. */
export const isEventStream = (contentType: string | null, text: string) => /text\/event-stream/i.test(contentType ?? '') || /^\s*data:/.test(text);
