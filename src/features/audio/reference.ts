import { RETENTION_DEFAULTS } from '../../config.ts';

export const audioReference = `## Audio
\`POST /api/audio\` with exactly one of \`{ cardId }\` or \`{ sentenceId }\` (one of your cards or
sentences) → \`{ audio }\`, \`audio = { audioId, status: "pending"|"ready"|"failed", contentType, url }\`.
- What is spoken: a card's English (the corrected text when its preparation corrected it, else the text
  as captured), or a sentence's \`original_text\`.
- One clip per spoken text and voice: the key is a hash of the text (Unicode NFC, trimmed, whitespace
  collapsed; case and punctuation kept) with the engine, voice and model. The first request for a key
  starts generation → 202 \`status: "pending"\`; poll \`GET /api/audio/:audioId\`. Any later request for the
  same text and voice, by anyone: 200 when ready, 202 while still generating — both free.
- Charging: the request that starts a generation is charged 5 × the provider cost
  (\`ceil(cost × 5 × 1000)\` credits, kind \`audio\`), once, and only when the generation succeeds.
  Starting a paid generation with a balance of 0 → 402. A failed generation costs nothing
  (\`status: "failed"\`); asking again starts it again.
- Quota: each user may start at most \`AUDIO_QUOTA_CLIPS\` generations (default 100) in any sliding
  \`AUDIO_QUOTA_WINDOW_HOURS\` (default 24), whatever the engine — the local one is free, so credits alone
  would not bound storage. Asking again for a failed clip is a new generation; clips that exist (ready,
  or being generated for anyone) are served as before and not counted. Beyond the quota → 429
  \`audio_quota_exceeded\` with \`Retry-After\` (seconds until the oldest start in the window leaves
  it): a limit on how many per time, hence 429 and not 402, which money would not lift.
- Engines: an OpenAI-compatible speech endpoint when \`TTS_BASE_URL\` is configured (MP3, cost = characters
  × \`TTS_COST_PER_MILLION_CHARS_USD\` / 1,000,000); otherwise the local espeak-ng engine (WAV, free).
  The text is sent to a remote engine only for generation, and never logged.
- Access: \`GET /api/audio/:audioId\` and its content answer only users who requested that clip (for one
  of their cards or sentences); deleting the card or sentence removes that link. Otherwise 404. A clip
  nobody links to any more is deleted ${RETENTION_DEFAULTS.unlinkedAudioDays} days after its last link went (by default; operators set
  \`RETENTION_UNLINKED_AUDIO_DAYS\`); asking for the same text later generates it again, and charges for it.
- \`GET /api/audio/:audioId/content\` serves the bytes with their \`Content-Type\`, \`Accept-Ranges: bytes\`
  and a strong \`ETag\`. One byte range per request: \`Range: bytes=0-99\`, \`bytes=100-\` or \`bytes=-50\`
  → 206 with \`Content-Range\`; a range starting past the end → 416 with \`Content-Range: bytes */<size>\`;
  several ranges or an \`If-Range\` that does not match → 200 with the whole clip. While the clip is
  pending or failed → 409 \`conflict\`.`;
