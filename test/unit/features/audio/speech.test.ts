import { describe, expect, it } from 'vitest';
import { audioKey } from '../../../../src/features/audio/audio-key.ts';
import { createOpenAiSpeechEngine, speechCostUsd } from '../../../../src/features/audio/speech/openai.ts';
import { speechEngineFor } from '../../../../src/features/audio/speech/configured-engine.ts';
import { SpeechError } from '../../../../src/features/audio/speech/engine.ts';
import { withWavSizes } from '../../../../src/features/audio/speech/wav.ts';

describe('audioKey', () => {
  const base = { text: 'Break a leg!', engine: 'openai', voice: 'alloy', model: 'tts-1' };
  it('ignores whitespace and Unicode composition differences', () => {
    expect(audioKey({ ...base, text: '  Break   a\tleg! ' })).toBe(audioKey(base));
    expect(audioKey({ ...base, text: 'cafe\u0301' })).toBe(audioKey({ ...base, text: 'café' }));
    expect(audioKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });
  it('keeps case, punctuation, engine, voice and model apart', () => {
    const keys = new Set([
      audioKey(base),
      audioKey({ ...base, text: 'break a leg!' }),
      audioKey({ ...base, text: 'Break a leg?' }),
      audioKey({ ...base, engine: 'espeak-ng' }),
      audioKey({ ...base, voice: 'nova' }),
      audioKey({ ...base, model: 'tts-2' }),
    ]);
    expect(keys.size).toBe(6);
  });
});

describe('speechCostUsd', () => {
  it('is characters (code points) × price per million, exactly', () => {
    expect(speechCostUsd('hello', '15')).toBe('0.000075');
    expect(speechCostUsd('😀😀', '15')).toBe('0.00003');
    expect(speechCostUsd('a'.repeat(3), '0.1')).toBe('0.0000003');
    expect(speechCostUsd('abc', '0')).toBe('0');
  });
});

describe('withWavSizes', () => {
  it('fills in the RIFF and data sizes left as placeholders by a streamed WAV', () => {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(0x7fffffff, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(0x7fffffff, 40);
    const wav = Buffer.concat([header, Buffer.alloc(100, 1)]);
    const fixed = withWavSizes(wav);
    expect(fixed.readUInt32LE(4)).toBe(wav.length - 8);
    expect(fixed.readUInt32LE(40)).toBe(100);
    expect(wav.readUInt32LE(4)).toBe(0x7fffffff); // the input is not modified
  });
  it('leaves anything else alone', () => {
    const mp3 = Buffer.from('ID3 not a wav file');
    expect(withWavSizes(mp3)).toBe(mp3);
  });
});

describe('OpenAI-compatible engine', () => {
  const config = { baseUrl: 'http://speech.test/v1/', apiKey: 'k', model: 'm', voice: 'v', costPerMillionCharsUsd: '15' };
  const fakeFetch =
    (status: number, body = 'audio', contentType = 'audio/mpeg'): typeof fetch =>
    async () =>
      new Response(body, { status, headers: { 'content-type': contentType } });

  it('posts the OpenAI speech request and returns the bytes', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const engine = createOpenAiSpeechEngine(config, {
      fetch: (async (url: string, init: RequestInit) => {
        seen = { url, init };
        return new Response('mp3!', { headers: { 'content-type': 'audio/mpeg' } });
      }) as typeof fetch,
    });
    const audio = await engine.synthesise('hello');
    expect(audio).toEqual({ bytes: Buffer.from('mp3!'), contentType: 'audio/mpeg' });
    expect(seen!.url).toBe('http://speech.test/v1/audio/speech');
    expect(JSON.parse(seen!.init.body as string)).toEqual({ model: 'm', voice: 'v', input: 'hello', response_format: 'mp3' });
    expect((seen!.init.headers as Record<string, string>).authorization).toBe('Bearer k');
  });

  it.each([
    [500, true],
    [503, true],
    [429, true],
    [400, false],
    [401, false],
  ])('HTTP %i → SpeechError retryable=%s, without the text', async (status, retryable) => {
    const engine = createOpenAiSpeechEngine(config, { fetch: fakeFetch(status, '{"error":"secret text echoed"}', 'application/json') });
    const error = await engine.synthesise('secret text').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ retryable });
    expect((error as Error).message).not.toContain('secret');
  });

  it('treats a network failure as retryable', async () => {
    const engine = createOpenAiSpeechEngine(config, {
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(engine.synthesise('x')).rejects.toMatchObject({ retryable: true });
  });

  it('is chosen only when TTS_BASE_URL is set; otherwise the free local engine', () => {
    expect(speechEngineFor({ ...config, baseUrl: 'http://x/v1' }).engine).toBe('openai');
    const local = speechEngineFor({ ...config, baseUrl: undefined });
    expect(local).toMatchObject({ engine: 'espeak-ng', voice: 'en-us' });
    expect(local.costUsd('anything at all')).toBe('0');
  });
});
