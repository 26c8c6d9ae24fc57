import { ExactDecimal } from '../../../domain/credits.ts';
import { countCodePoints } from '../../../domain/normalise.ts';
import { type SpeechAudio, type SpeechEngine, SpeechError } from './engine.ts';

export interface OpenAiSpeechConfig {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  voice: string;
  costPerMillionCharsUsd: string;
}

/** One request may not hang a worker slot forever; Temporal retries the activity. */
export const SPEECH_REQUEST_TIMEOUT_MS = 60_000;
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/**
 * An OpenAI-compatible speech endpoint: `POST {baseUrl}/audio/speech` → MP3 bytes.
 *
 * Privacy: the request carries the user's text, so nothing of it (nor of the answer) is ever
 * logged or put into an error message; errors carry the HTTP status only. The endpoint has no
 * per-request data-retention switch: operators must point TTS_BASE_URL at a provider (or
 * gateway) with zero data retention, as for the model provider.
 */
export function createOpenAiSpeechEngine(config: OpenAiSpeechConfig, deps: { fetch?: typeof fetch } = {}): SpeechEngine {
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const url = `${config.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  return {
    engine: 'openai',
    voice: config.voice,
    model: config.model,
    costUsd: (text) => speechCostUsd(text, config.costPerMillionCharsUsd),
    async synthesise(text, signal): Promise<SpeechAudio> {
      const timeout = AbortSignal.timeout(SPEECH_REQUEST_TIMEOUT_MS);
      let res: Response;
      let bytes: Buffer;
      try {
        res = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: config.model, voice: config.voice, input: text, response_format: 'mp3' }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        bytes = Buffer.from(await res.arrayBuffer());
      } catch {
        throw new SpeechError(timeout.aborted ? 'speech provider timed out' : 'speech provider unreachable', true);
      }
      if (!res.ok) {
        throw new SpeechError(`speech provider failed (HTTP ${res.status})`, RETRYABLE_STATUSES.has(res.status));
      }
      if (bytes.length === 0) throw new SpeechError('speech provider sent no audio', true);
      const contentType = res.headers.get('content-type')?.split(';')[0]?.trim();
      return { bytes, contentType: contentType?.startsWith('audio/') ? contentType : 'audio/mpeg' };
    },
  };
}

/** characters (code points) × price per million / 1e6, as exact decimal text. */
export function speechCostUsd(text: string, pricePerMillionCharsUsd: string): string {
  return new ExactDecimal(countCodePoints(text)).times(pricePerMillionCharsUsd).dividedBy(1_000_000).toFixed();
}
