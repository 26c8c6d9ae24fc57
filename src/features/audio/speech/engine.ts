/**
 * Text-to-speech behind one interface. The engine, voice and model are part of an audio clip's
 * identity (its cache key), so the same text spoken by another engine or voice is another clip.
 */
export interface SpeechEngine {
  /** Stable engine name stored with each clip, e.g. `openai` or `espeak-ng`. */
  readonly engine: string;
  readonly voice: string;
  readonly model: string;
  /** Provider cost in USD for speaking `text`, exact decimal text ("0" for a free engine). */
  costUsd(text: string): string;
  synthesise(text: string, signal?: AbortSignal): Promise<SpeechAudio>;
}

export interface SpeechAudio {
  bytes: Buffer;
  contentType: string;
}

/**
 * Why a synthesis failed, without any of the spoken text. `retryable` says whether trying again
 * later can help (network, timeouts, 429 and 5xx) or not (credentials, a rejected request).
 */
export class SpeechError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'SpeechError';
    this.retryable = retryable;
  }
}
