import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEspeakEngine } from '../../../../src/features/audio/speech/espeak.ts';

const installed = (() => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!installed)('espeak-ng engine', () => {
  it('speaks text given on stdin, including text that looks like options or shell', async () => {
    const audio = await createEspeakEngine().synthesise('--help; $(rm -rf /) `hi` "quoted"');
    expect(audio.contentType).toBe('audio/wav');
    expect(audio.bytes.toString('latin1', 0, 4)).toBe('RIFF');
    expect(audio.bytes.readUInt32LE(4)).toBe(audio.bytes.length - 8);
  });

  it('reports a missing binary as not retryable', async () => {
    await expect(createEspeakEngine('definitely-not-espeak-ng').synthesise('x')).rejects.toMatchObject({ retryable: false });
  });
});
