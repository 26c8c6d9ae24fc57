import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCard } from '../replay/cards.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { insertSentence, uniqueText, waitForAudio } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let owner: TestUser;
let audioId: string;
let full: Buffer;
beforeAll(async () => {
  stack = await startStack();
  owner = await newUser(stack);
  const sentenceId = await insertSentence(stack.orm, owner.userId, uniqueText('The quick brown fox jumps over the lazy dog'));
  const res = await api(stack, { token: owner.token }).POST('/api/audio', { body: { sentenceId } });
  expectStatus(res, 202);
  expect(res.body.audio).toMatchObject({ status: 'pending', contentType: null });
  audioId = res.body.audio.audioId;
  const ready = await waitForAudio(stack, owner, audioId);
  expect(ready).toEqual({ audioId, status: 'ready', contentType: 'audio/wav', url: `/api/audio/${audioId}/content` });
  const content = await fetch(`${stack.baseUrl}${ready.url}`, { headers: { authorization: `Bearer ${owner.token}` } });
  expect(content.status).toBe(200);
  full = Buffer.from(await content.arrayBuffer());
});
afterAll(async () => {
  await stack?.close();
});

// Buffer.equals: a deep equality over 100 kB of audio is needlessly slow.
const sameBytes = (body: ArrayBuffer, expected: Buffer) => Buffer.from(body).equals(expected);

const get = (range?: string, user = owner) =>
  fetch(`${stack.baseUrl}/api/audio/${audioId}/content`, { headers: { authorization: `Bearer ${user.token}`, ...(range ? { range } : {}) } });

describe('local espeak-ng engine', () => {
  it('serves a WAV with real sizes in its header, free of charge, cached afterwards', async () => {
    expect(full.toString('latin1', 0, 4)).toBe('RIFF');
    expect(full.readUInt32LE(4)).toBe(full.length - 8);
    expect(full.length).toBeGreaterThan(1000);
    expect(await balanceOf(stack, owner)).toBe(500);
    const again = await api(stack, { token: owner.token }).POST('/api/audio', {
      body: { sentenceId: (await stack.orm.em.fork().execute<any[]>(`SELECT sentence_id FROM audio_requests WHERE audio_id = ?`, [audioId]))[0].sentence_id },
    });
    expectStatus(again, 200);
    expect(again.body.audio).toMatchObject({ audioId, status: 'ready' });
  });

  it('answers range requests', async () => {
    const size = full.length;
    const whole = await get();
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(Number(whole.headers.get('content-length'))).toBe(size);
    expect(sameBytes(await whole.arrayBuffer(), full)).toBe(true);

    const first = await get('bytes=0-99');
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(sameBytes(await first.arrayBuffer(), full.subarray(0, 100))).toBe(true);

    const rest = await get('bytes=100-');
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 100-${size - 1}/${size}`);
    expect(sameBytes(await rest.arrayBuffer(), full.subarray(100))).toBe(true);

    const suffix = await get('bytes=-50');
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 50}-${size - 1}/${size}`);
    expect(sameBytes(await suffix.arrayBuffer(), full.subarray(size - 50))).toBe(true);

    const clamped = await get(`bytes=${size - 10}-${size + 1000}`);
    expect(clamped.status).toBe(206);
    expect(sameBytes(await clamped.arrayBuffer(), full.subarray(size - 10))).toBe(true);

    const beyond = await get(`bytes=${size}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(((await beyond.json()) as { code: string }).code).toBe('range_not_satisfiable');

    const several = await get('bytes=0-1,5-9');
    expect(several.status).toBe(200);
    expect(sameBytes(await several.arrayBuffer(), full)).toBe(true);
  });

  it('hides a clip from users who never requested it, and serves it to one who asks for the same text', async () => {
    const stranger = await newUser(stack);
    expectProblem(await api(stack, { token: stranger.token }).GET('/api/audio/{audioId}', { params: { path: { audioId } } }), 404, 'not_found');
    expect((await get(undefined, stranger)).status).toBe(404);

    const [{ original_text: text }] = await stack.orm.em
      .fork()
      .execute<any[]>(`SELECT s.original_text FROM sentences s JOIN audio_requests r ON r.sentence_id = s.id WHERE r.audio_id = ?`, [audioId]);
    const cardId = await insertCard(stack.orm, stranger.userId, { text });
    const res = await api(stack, { token: stranger.token }).POST('/api/audio', { body: { cardId } });
    expectStatus(res, 200);
    expect(res.body.audio.audioId).toBe(audioId);
    expect((await get(undefined, stranger)).status).toBe(200);

    // Deleting the card removes the link, and with it the access.
    await stack.orm.em.fork().execute(`DELETE FROM cards WHERE id = ?`, [cardId]);
    expect((await api(stack, { token: stranger.token }).GET('/api/audio/{audioId}', { params: { path: { audioId } } })).status).toBe(404);
  });

  it('speaks the corrected text of a card whose preparation corrected it', async () => {
    const user = await newUser(stack);
    const text = uniqueText('Their going home');
    const corrected = text.replace('Their', "They're");
    const cardId = await insertCard(stack.orm, user.userId, { text, correctedText: corrected });
    const sentenceId = await insertSentence(stack.orm, user.userId, corrected);
    const fromCard = bodyOf(await api(stack, { token: user.token }).POST('/api/audio', { body: { cardId } }), 200, 202);
    const fromSentence = bodyOf(await api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId } }), 200, 202);
    expect(fromSentence.audio.audioId).toBe(fromCard.audio.audioId);
  });

  it('validates the request', async () => {
    const user = await newUser(stack);
    const other = await newUser(stack);
    const cardId = await insertCard(stack.orm, other.userId, { text: uniqueText('not yours') });
    // Raw: a typed client cannot ask for neither.
    expectProblem(await rawHttp(stack, 'POST', '/api/audio', { token: user.token, body: {} }), 400, 'invalid_request');
    expectProblem(await api(stack, { token: user.token }).POST('/api/audio', { body: { cardId, sentenceId: cardId } }), 400, 'invalid_request');
    expectProblem(await api(stack, { token: user.token }).POST('/api/audio', { body: { cardId: 'nope' } }), 400, 'invalid_request');
    expectProblem(await api(stack, { token: user.token }).POST('/api/audio', { body: { cardId } }), 404, 'not_found');
    expectProblem(await api(stack, { token: user.token }).GET('/api/audio/{audioId}', { params: { path: { audioId: 'not-a-uuid' } } }), 400, 'invalid_request');
  });
});
