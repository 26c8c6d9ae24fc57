import { spawn } from 'node:child_process';
import { type SpeechAudio, type SpeechEngine, SpeechError } from './engine.ts';
import { withWavSizes } from './wav.ts';

const VOICE = 'en-us';
const TIMEOUT_MS = 30_000;

/**
 * The local engine: espeak-ng on this machine, free (cost 0). The text goes in on stdin of a
 * process started without a shell, so no text can be read as an option or a command.
 */
export function createEspeakEngine(command = 'espeak-ng'): SpeechEngine {
  return {
    engine: 'espeak-ng',
    voice: VOICE,
    model: 'espeak-ng',
    costUsd: () => '0',
    synthesise: (text, signal) => runEspeak(command, text, signal),
  };
}

function runEspeak(command: string, text: string, signal?: AbortSignal): Promise<SpeechAudio> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['-v', VOICE, '--stdout', '--stdin'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Not installed is a set-up problem that retrying does not fix.
      reject(new SpeechError(error.code === 'ENOENT' ? 'espeak-ng is not installed' : `espeak-ng failed: ${error.name}`, error.code !== 'ENOENT'));
    });
    child.on('close', (code) => {
      if (code !== 0) return reject(new SpeechError(`espeak-ng exited with ${code}`, true));
      const bytes = Buffer.concat(chunks);
      if (bytes.length === 0) return reject(new SpeechError('espeak-ng produced no audio', true));
      resolve({ bytes: withWavSizes(bytes), contentType: 'audio/wav' });
    });
    child.stdin.on('error', () => {
      /* reported through 'close' */
    });
    child.stdin.end(text);
  });
}
