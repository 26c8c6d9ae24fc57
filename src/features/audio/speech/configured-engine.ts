import type { Config } from '../../../config.ts';
import type { SpeechEngine } from './engine.ts';
import { createEspeakEngine } from './espeak.ts';
import { createOpenAiSpeechEngine } from './openai.ts';

/** The configured remote engine when TTS_BASE_URL is set, else the local espeak-ng engine. */
export function speechEngineFor(tts: Config['tts'], deps: { fetch?: typeof fetch } = {}): SpeechEngine {
  return tts.baseUrl ? createOpenAiSpeechEngine({ ...tts, baseUrl: tts.baseUrl }, deps) : createEspeakEngine();
}
