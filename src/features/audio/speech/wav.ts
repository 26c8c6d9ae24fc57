/**
 * espeak-ng writing to a pipe cannot seek back, so its WAV header carries placeholder sizes
 * (0x7fffffff). Browsers use those sizes for duration and seeking; this fills in the real ones.
 * Pure; returns the input unchanged when it is not a RIFF/WAVE file.
 */
export function withWavSizes(wav: Buffer): Buffer {
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') return wav;
  const out = Buffer.from(wav);
  out.writeUInt32LE(out.length - 8, 4);
  // Walk the chunks to the `data` chunk; it runs to the end of the stream.
  let offset = 12;
  while (offset + 8 <= out.length) {
    const id = out.toString('latin1', offset, offset + 4);
    if (id === 'data') {
      out.writeUInt32LE(out.length - offset - 8, offset + 4);
      break;
    }
    const size = out.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
  }
  return out;
}
