import { hash } from 'node:crypto';
import { cleanCaptureText } from '../../domain/normalise.ts';

export interface AudioIdentity {
  text: string;
  engine: string;
  voice: string;
  model: string;
}

/**
 * The identity of a generated clip: SHA-256 (hex) of the spoken text — NFC, trimmed, whitespace
 * collapsed, case and punctuation kept because they change how it is spoken — with the engine,
 * voice and model. Identical text and voice is generated once, for everyone; the key carries no
 * user text.
 */
export function audioKey(identity: AudioIdentity): string {
  const parts = [cleanCaptureText(identity.text), identity.engine, identity.voice, identity.model];
  // NUL cannot occur in any part, so the joined form is unambiguous.
  return hash('sha256', parts.join('\u0000'));
}

export const spokenText = (text: string) => cleanCaptureText(text);
