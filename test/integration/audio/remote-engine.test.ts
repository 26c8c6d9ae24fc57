import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCard } from '../replay/cards.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { balanceOf, newUser } from '../../support/users.ts';
import { FAKE_MP3, insertSentence, startFakeSpeech, uniqueText, waitForAudio, type FakeSpeech } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let speech: FakeSpeech;
beforeAll(async () => {
  speech = await startFakeSpeech();
  stack = await startStack({
    env: { TTS_BASE_URL: speech.baseUrl, TTS_API_KEY: 'tts-key', TTS_MODEL: 'tts-test', TTS_VOICE: 'nova', TTS_COST_PER_MILLION_CHARS_USD: '1000' },
  });
});
afterAll(async () => {
  await stack?.close();
  await speech?.close();
});

/** 1000 USD per million characters: 0.001 USD per character, × 5 × 1000 = 5 credits per character. */
const creditsFor = (text: string) => Array.from(text).length * 5;

async function ledgerAudioEntries(userId: string) {
  return stack.orm.em
    .fork()
    .execute<{ amount: number; idempotency_key: string }[]>(`SELECT amount, idempotency_key FROM ledger_entries WHERE user_id = ? AND kind = 'audio'`, [
      userId,
    ]);
}

describe('remote OpenAI-compatible engine', () => {
  it('charges the first requester 5 × the provider cost once; a later requester is served free', async () => {
    speech.mode = 'ok';
    const text = uniqueText('Nice to meet you');
    const first = await newUser(stack);
    const second = await newUser(stack);
    const cardId = await insertCard(stack.orm, first.userId, { text });
    const sentenceId = await insertSentence(stack.orm, second.userId, text);
    const before = speech.requests.length;

    const res = await api(stack, { token: first.token }).POST('/api/audio', { body: { cardId } });
    expectStatus(res, 202);
    const audio = await waitForAudio(stack, first, res.body.audio.audioId);
    expect(audio.contentType).toBe('audio/mpeg');
    expect(speech.requests.length).toBe(before + 1);
    expect(speech.requests.at(-1)).toEqual({
      body: { model: 'tts-test', voice: 'nova', input: text, response_format: 'mp3' },
      authorization: 'Bearer tts-key',
    });
    expect(await balanceOf(stack, first)).toBe(500 - creditsFor(text));
    expect(await ledgerAudioEntries(first.userId)).toEqual([{ amount: -creditsFor(text), idempotency_key: `audio/${audio.audioId}` }]);

    // Raw: the clip's url is followed as the service gave it.
    const content = await rawHttp(stack, 'GET', audio.url, { token: first.token });
    expect(Buffer.from(content.text, 'latin1').length).toBe(FAKE_MP3.length);

    const cached = await api(stack, { token: second.token }).POST('/api/audio', { body: { sentenceId } });
    expectStatus(cached, 200);
    expect(cached.body.audio).toEqual(audio);
    expect(await balanceOf(stack, second)).toBe(500);
    expect(speech.requests.length).toBe(before + 1);
  });

  it('generates once when two users ask at once; only the one who started it pays', async () => {
    speech.mode = 'ok';
    const text = uniqueText('See you later alligator');
    const users = await Promise.all([newUser(stack), newUser(stack)]);
    const sentenceIds = await Promise.all(users.map((u) => insertSentence(stack.orm, u.userId, text)));
    const before = speech.requests.length;
    const answers = await Promise.all(users.map((u, i) => api(stack, { token: u.token }).POST('/api/audio', { body: { sentenceId: sentenceIds[i]! } })));
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    const [a, b] = answers.map((answer) => bodyOf(answer, 202).audio);
    expect(a!.audioId).toBe(b!.audioId);
    await waitForAudio(stack, users[0], a!.audioId);
    expect(speech.requests.length).toBe(before + 1);
    const balances = await Promise.all(users.map((u) => balanceOf(stack, u)));
    expect(balances.sort()).toEqual([500 - creditsFor(text), 500].sort());
  });

  it('marks a failed generation failed and charges nothing; asking again retries and charges once', async () => {
    speech.mode = 'fail';
    const user = await newUser(stack);
    const text = uniqueText('This will fail first');
    const sentenceId = await insertSentence(stack.orm, user.userId, text);
    const res = await api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId } });
    expectStatus(res, 202);
    const failed = await waitForAudio(stack, user, res.body.audio.audioId, 'failed');
    expect(failed).toMatchObject({ status: 'failed', contentType: null });
    expect(await balanceOf(stack, user)).toBe(500);
    expect(await ledgerAudioEntries(user.userId)).toEqual([]);
    expectProblem(await rawHttp(stack, 'GET', failed.url, { token: user.token }), 409, 'conflict');

    speech.mode = 'ok';
    const retry = await api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId } });
    expectStatus(retry, 202);
    expect(retry.body.audio).toMatchObject({ audioId: failed.audioId, status: 'pending' });
    await waitForAudio(stack, user, failed.audioId);
    expect(await balanceOf(stack, user)).toBe(500 - creditsFor(text));
    expect(await ledgerAudioEntries(user.userId)).toHaveLength(1);
  });

  it('does not retry a rejected request', async () => {
    speech.mode = 'reject';
    const user = await newUser(stack);
    const sentenceId = await insertSentence(stack.orm, user.userId, uniqueText('Rejected outright'));
    const before = speech.requests.length;
    const res = await api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId } });
    await waitForAudio(stack, user, bodyOf(res, 202).audio.audioId, 'failed');
    expect(speech.requests.length).toBe(before + 1);
    expect(await balanceOf(stack, user)).toBe(500);
  });

  it('answers 402 before starting a paid generation with no credits, but still serves cached audio', async () => {
    speech.mode = 'ok';
    const payer = await newUser(stack);
    const broke = await newUser(stack);
    const cachedText = uniqueText('Already generated');
    const payerSentence = await insertSentence(stack.orm, payer.userId, cachedText);
    const first = await api(stack, { token: payer.token }).POST('/api/audio', { body: { sentenceId: payerSentence } });
    await waitForAudio(stack, payer, bodyOf(first, 202).audio.audioId);

    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [broke.userId]);
    const newSentence = await insertSentence(stack.orm, broke.userId, uniqueText('Never generated'));
    expectProblem(await api(stack, { token: broke.token }).POST('/api/audio', { body: { sentenceId: newSentence } }), 402, 'insufficient_credits');
    const [{ n }] = await stack.orm.em.fork().execute<any[]>(`SELECT count(*) AS n FROM audio_requests WHERE user_id = ?`, [broke.userId]);
    expect(Number(n)).toBe(0);

    const cachedSentence = await insertSentence(stack.orm, broke.userId, cachedText);
    const cached = await api(stack, { token: broke.token }).POST('/api/audio', { body: { sentenceId: cachedSentence } });
    expectStatus(cached, 200);
  });
});
