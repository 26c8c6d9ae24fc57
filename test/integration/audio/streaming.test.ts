import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_STREAM_CHUNK_BYTES } from '../../../src/features/audio/service.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { insertSentence, uniqueText } from './support.ts';
import { rawHttp } from '../../support/api.ts';

let stack: Stack;
let owner: TestUser;
let audioId: string;
// Several stream chunks and a ragged tail.
const clip = randomBytes(AUDIO_STREAM_CHUNK_BYTES * 3 + 12_345);

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await newUser(stack);
  const sentenceId = await insertSentence(stack.orm, owner.userId, uniqueText('A long clip'));
  audioId = randomUUID();
  const em = stack.orm.em.fork();
  await em.execute(
    `INSERT INTO audio_clips (id, audio_key, engine, voice, model, status, content_type, content, byte_length, finished_at)
     VALUES (?, ?, 'espeak-ng', 'en-us', 'espeak-ng', 'ready', 'audio/wav', ?, ?, now())`,
    [audioId, randomUUID(), clip, clip.length],
  );
  await em.execute(`INSERT INTO audio_requests (user_id, audio_id, sentence_id) VALUES (?, ?, ?)`, [owner.userId, audioId, sentenceId]);
});
afterAll(async () => {
  await stack?.close();
});

const get = (range?: string) =>
  fetch(`${stack.baseUrl}/api/audio/${audioId}/content`, { headers: { authorization: `Bearer ${owner.token}`, ...(range ? { range } : {}) } });

describe('serving a clip larger than one stream chunk', () => {
  it('sends the whole clip and ranges across chunk boundaries byte for byte', async () => {
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get('content-length'))).toBe(clip.length);
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip)).toBe(true);

    const from = AUDIO_STREAM_CHUNK_BYTES - 7;
    const to = AUDIO_STREAM_CHUNK_BYTES * 2 + 100;
    const middle = await get(`bytes=${from}-${to}`);
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes ${from}-${to}/${clip.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(clip.subarray(from, to + 1))).toBe(true);

    const tail = await get('bytes=-300000');
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 300_000))).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('documents the 200 and 206 byte answers the content route sends', async () => {
    const doc = (await rawHttp(stack, 'GET', '/api/openapi.json')).body;
    const responses = doc.paths['/api/audio/{audioId}/content'].get.responses;
    const served = (await get()).headers.get('content-type');
    expect(served).toBe('audio/wav');
    for (const status of ['200', '206']) {
      expect(Object.keys(responses[status]?.content ?? {}), status).toEqual(['audio/*']);
      expect(responses[status].content['audio/*'].schema).toMatchObject({ type: 'string', format: 'binary' });
    }
  });
});
