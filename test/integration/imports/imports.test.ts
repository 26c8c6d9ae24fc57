import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { importWorkflowId } from '../../../src/features/library/imports/service.ts';

let stack: Stack;
let user: TestUser;
// A small model bucket (5 per 2 s): the import must pace itself within it and leave room for interactive captures.
useStack((started: Started) => ({ stack, user } = started), {
  env: { RATE_LIMIT_MODEL_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '2' },
  fakeCost: '0.00001', // one credit a card: a free plan holds the whole import
});

async function call(
  path: string,
  init: { method?: string; body?: unknown; raw?: string | Uint8Array; type?: string; headers?: Record<string, string>; token?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${init.token ?? user.token}`, ...init.headers };
  let body: string | Uint8Array | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    headers['content-type'] = init.type ?? 'text/plain';
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${stack.baseUrl}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function waitForState(importId: string, states: string[], token?: string, timeout = 120_000) {
  return vi.waitFor(
    async () => {
      const res = await call(`/api/library/imports/${importId}`, { token });
      expect(res.status).toBe(200);
      expect(states, JSON.stringify(res.body.import)).toContain(res.body.import.state);
      return res.body.import;
    },
    { timeout, interval: 300 },
  );
}

describe('imports', () => {
  it('imports a list: 202 with counts, saved at once, every card prepared within the model budget while interactive captures still go through', async () => {
    const expressions = Array.from({ length: 30 }, (_, i) => `imported phrase ${String.fromCharCode(97 + (i % 26))}${i}`);
    // One of them is in the library already: reused, not a second card.
    const existing = await call('/api/library', { body: { text: expressions[3] } });
    expect(existing.status).toBe(202);
    await new Promise((r) => setTimeout(r, 2_100)); // the bucket refills
    const created = await call('/api/library/imports', { body: { expressions: [...expressions, expressions[0], '   ', '!!!'], source: 'list.txt' } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.parsed).toMatchObject({ expressions: 30, skipped: { duplicatesInFile: 1, invalid: 1 } });
    const importId = created.body.import.importId;

    // Interactive captures during the import are not refused by the model budget (one per window, as a learner).
    const interactive: number[] = [];
    for (let i = 0; i < 3; i++) {
      interactive.push((await call('/api/library', { body: { text: `interactive during import ${i}` } })).status);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(interactive).toEqual([202, 202, 202]);

    const done = await waitForState(importId, ['completed']);
    expect(done.counts).toEqual({ total: 30, saved: 29, reused: 1, prepared: 29, preparing: 0, waiting: 0, waitingForCredits: 0, failed: {}, removed: 0 });
    expect(done.outcome.message).toMatch(/All 29 new cards prepared/);
    // One card per expression, one preparation start each.
    const starts = await stack.orm.em
      .fork()
      .execute<{ n: string }[]>(
        `SELECT count(*) AS n FROM workflow_outbox o JOIN library_import_rows r ON o.workflow_id = 'card-enrichment/' || r.card_id WHERE r.import_id = ?`,
        [importId],
      );
    expect(Number(starts[0]!.n)).toBe(30); // 29 started by the import + the existing card's own capture

    // The same list again is the same import.
    const again = await call('/api/library/imports', { body: { expressions: [...expressions, expressions[0], '   ', '!!!'], source: 'list.txt' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.import.importId).toBe(importId);
    // A key reused for other content is refused.
    const k1 = await call('/api/library/imports', { body: { expressions: ['keyed one'] }, headers: { 'idempotency-key': 'k-1' } });
    expect(k1.status).toBe(202);
    await waitForState(k1.body.import.importId, ['completed']);
    const k2 = await call('/api/library/imports', { body: { expressions: ['keyed two'] }, headers: { 'idempotency-key': 'k-1' } });
    expect(k2.status).toBe(422);
  }, 180_000);

  it(
    "keeps each row's sentence on its card, as a capture's context: the new card is prepared for that sense, " + 'a known card just gains the sentence',
    async () => {
      const known = await call('/api/library', { body: { text: 'riverbank' } });
      expect(known.status).toBe(202);
      const created = await call('/api/library/imports', {
        body: {
          expressions: [
            { text: 'bank', context: 'We had a picnic on the bank of the river.' },
            { text: 'riverbank', context: 'Ducks slept on the riverbank all afternoon.' },
            { text: 'pier', context: 'This sentence does not name it.' },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      await waitForState(created.body.import.importId, ['completed']);
      const cards = (await call('/api/library?limit=50')).body.items as { cardId: string; text: string }[];
      const detail = async (text: string) => (await call(`/api/library/${cards.find((c) => c.text === text)!.cardId}`)).body.card;
      const bank = await detail('bank');
      expect(bank.contexts.map((c: { text: string }) => c.text)).toEqual(['We had a picnic on the bank of the river.']);
      expect(bank.preparedContextId).toBe(bank.contexts[0].contextId);
      expect(bank.enrichment.sense.cue).toBe('river');
      const riverbank = await detail('riverbank');
      expect(riverbank.contexts.map((c: { text: string }) => c.text)).toEqual(['Ducks slept on the riverbank all afternoon.']);
      expect(riverbank.preparedContextId).toBeNull();
      // A sentence without the expression stays on the import row, never on the card.
      expect((await detail('pier')).contexts).toEqual([]);
    },
    180_000,
  );

  it('reads files: CSV with a named column, a missing column named, binary refused, an over-large file refused before its body', async () => {
    const other = await newUser(stack);
    const csv = 'word,meaning\n"break a leg",good luck\nshort\n"run out of steam",tired\n';
    const preview = await call('/api/library/imports/preview?format=csv&column=word', { raw: csv, type: 'text/csv', token: other.token });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ format: 'csv', expressions: 3, inLibrary: 0 });
    expect(preview.body.first.map((r: { text: string }) => r.text)).toEqual(['break a leg', 'short', 'run out of steam']);

    const missing = await call('/api/library/imports/file?format=csv&column=expression', { raw: csv, type: 'text/csv', token: other.token });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ reason: 'missing_column', columns: ['word', 'meaning'] });
    expect(missing.body.detail).toMatch(/no column "expression"/);

    const pdf = await call('/api/library/imports/file?format=csv', {
      raw: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]),
      type: 'text/csv',
      token: other.token,
    });
    expect(pdf.status).toBe(400);
    expect(pdf.body).toMatchObject({ reason: 'not_text' });
    expect(pdf.body.detail).toMatch(/PDF/);

    const empty = await call('/api/library/imports/file', { raw: '', type: 'text/plain', token: other.token });
    expect(empty.status).toBe(400);

    const notDb = await call('/api/library/imports/file?format=kindle', { raw: 'hello', type: 'application/octet-stream', token: other.token });
    expect(notDb.status).toBe(400);
    expect(notDb.body).toMatchObject({ reason: 'not_sqlite' });

    const long = `${'word '.repeat(80)}end`;
    const withLong = await call('/api/library/imports/file?fileName=notes.txt', {
      raw: `first phrase\n${long}\nsecond phrase\n`,
      type: 'text/plain',
      token: other.token,
    });
    expect(withLong.status).toBe(202);
    expect(withLong.body.parsed).toMatchObject({ expressions: 2, skipped: { tooLong: 1 } });
    expect(withLong.body.import.problems[0]).toMatchObject({ line: 2, code: 'too_long' });
    await waitForState(withLong.body.import.importId, ['completed'], other.token, 20_000);

    // 50 MB declared: refused from the headers, with the limit, before the body is sent.
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(stack.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/library/imports/file HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${other.token}\r\n` +
            `Content-Type: text/plain\r\nContent-Length: 52428800\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      setTimeout(() => (socket.destroy(), resolve(text)), 10_000);
    });
    expect(answer).toMatch(/^HTTP\/1.1 413/);
    expect(answer).toMatch(/52\.4 MB; an import takes files up to 25 MB/);
    expect(answer).toMatch(/"limit":25000000/);
  }, 120_000);

  it('waits when the credits run out, says so, and goes on when they renew; cancelling keeps what is saved', async () => {
    const poor = await newUser(stack);
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [poor.userId]);
    const created = await call('/api/library/imports', { body: { expressions: ['credit one', 'credit two', 'credit three'] }, token: poor.token });
    expect(created.status).toBe(202);
    const importId = created.body.import.importId;
    const waiting = await waitForState(importId, ['waiting_for_credits'], poor.token);
    expect(waiting.counts).toMatchObject({ saved: 3, prepared: 0, waitingForCredits: 3 });
    expect(waiting.outcome.message).toMatch(/^0 of 3 prepared; the rest are saved and will be prepared when your credits renew on /);
    expect(waiting.resumeAt).not.toBeNull();
    // The credits renew (topped up here), and the workflow is woken.
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 500 WHERE user_id = ?`, [poor.userId]);
    await stack.temporal.workflow.getHandle(importWorkflowId(importId)).signal('importWake');
    const done = await waitForState(importId, ['completed'], poor.token);
    expect(done.counts).toMatchObject({ saved: 3, prepared: 3 });
    const charges = await stack.orm.em
      .fork()
      .execute<{ n: string }[]>(`SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND kind = 'capture_preparation'`, [poor.userId]);
    expect(Number(charges[0]!.n)).toBe(3);

    // Cancel: a big import cancelled at once keeps its saved cards, the unstarted ones failed import_cancelled.
    const big = await call('/api/library/imports', {
      body: { expressions: Array.from({ length: 200 }, (_, i) => `cancel me ${i} please`) },
      token: poor.token,
    });
    expect(big.status).toBe(202);
    await waitForState(big.body.import.importId, ['preparing'], poor.token);
    const cancelled = await call(`/api/library/imports/${big.body.import.importId}/cancel`, { method: 'POST', token: poor.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.import.state).toBe('cancelled');
    const settled = await vi.waitFor(
      async () => {
        const view = (await call(`/api/library/imports/${big.body.import.importId}`, { token: poor.token })).body.import;
        expect(view.counts.preparing).toBe(0);
        return view;
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(settled.counts.saved).toBe(200);
    expect(settled.counts.failed.import_cancelled).toBeGreaterThan(100);
    expect(settled.outcome.code).toBe('cancelled');
    // Another learner cannot see it.
    expect((await call(`/api/library/imports/${big.body.import.importId}`)).status).toBe(404);
  }, 180_000);
});
