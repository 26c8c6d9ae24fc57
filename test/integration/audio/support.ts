import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import type { Orm } from '../../../src/db/orm.ts';
import { normaliseExpression } from '../../../src/domain/normalise.ts';

import type { TestUser } from '../../support/users.ts';
import { api, bodyOf, type Target } from '../../support/api.ts';

/** A real OpenAI-compatible speech endpoint on 127.0.0.1: records requests, answers MP3-ish bytes or fails. */
export interface FakeSpeech {
  baseUrl: string;
  requests: { body: any; authorization: string | undefined }[];
  mode: 'ok' | 'fail' | 'reject';
  close(): Promise<void>;
}

export const FAKE_MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(997, 7)]);

export async function startFakeSpeech(): Promise<FakeSpeech> {
  const fake: FakeSpeech = { baseUrl: '', requests: [], mode: 'ok', close: async () => {} };
  const server = http.createServer((req, res) => void answer(req, res));
  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/audio/speech') return void res.writeHead(404).end();
    fake.requests.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), authorization: req.headers.authorization });
    if (fake.mode === 'fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
    if (fake.mode === 'reject') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad voice"}}');
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': FAKE_MP3.length }).end(FAKE_MP3);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/** Inserts one of the user's sentences straight into issue #4's table. */
export async function insertSentence(orm: Orm, userId: string, text: string): Promise<string> {
  const id = randomUUID();
  await orm.em.fork().execute(
    `INSERT INTO sentences (id, user_id, original_text, dedup_key, translation, status, native_language, mode)
     VALUES (?, ?, ?, ?, ?, 'translated', 'fr', 'sync')`,
    [id, userId, text, normaliseExpression(text), `[fr] ${text}`],
  );
  return id;
}

/** Polls GET /api/audio/:id until the clip leaves `pending`. */
export async function waitForAudio(target: Target, user: TestUser, audioId: string, status: 'ready' | 'failed' = 'ready') {
  return vi.waitFor(
    async () => {
      const { audio } = bodyOf(await api(target, { token: user.token }).GET('/api/audio/{audioId}', { params: { path: { audioId } } }), 200);
      expect(audio.status).toBe(status);
      return audio;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * A text no other test uses: clips are shared by text across the whole run. Letters only (each
 * digit becomes one of g–p, so all 16 hex values stay distinct): replacing every digit by one
 * letter made "xxxxxxxx" a 2 % draw, and clips collided between tests.
 */
export const uniqueText = (words: string) =>
  `${words} ${randomUUID()
    .slice(0, 8)
    .replace(/\d/g, (d) => String.fromCharCode(103 + Number(d)))}`;
