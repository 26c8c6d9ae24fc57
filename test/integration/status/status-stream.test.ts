import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useStack } from '../../support/fixture.ts';
import { sql } from '../../support/helpers.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { mintToken, newUser, type TestUser } from '../../support/users.ts';
import { capture } from '../library/helpers.ts';
import { asyncHeaders } from '../sentences/support.ts';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let owner: TestUser;
// A small address cap, so that its test reaches it (the other tests open a few streams at a time).
const PER_ADDRESS = 9;
useStack((started) => ({ stack, user: owner } = started), { env: { STATUS_STREAMS_PER_ADDRESS: String(PER_ADDRESS) } });

/** A second API process on the same database: no worker, so it only hears what others announce. */
let otherApi: Stack;
let stranger: TestUser;
beforeAll(async () => {
  otherApi = await startStack({ worker: false });
  stranger = await newUser(stack);
});
afterAll(async () => {
  await otherApi?.close();
});

/** What a test reads from one text/event-stream: its `data:` events, parsed, as they arrive. */
interface Stream {
  events: { at: number; data: any }[];
  /** The error the stream ended with (tRPC's `serialized-error` event), if any. */
  error?: any;
  ended: boolean;
  close(): void;
}

/** The GET that tRPC's httpSubscriptionLink makes, with the page's cookie or (`lcp_…`) a token. */
const askForStream = (api: Stack, credential: string, signal?: AbortSignal) =>
  fetch(`${api.baseUrl}/trpc/status.changes`, {
    headers: { ...(credential.startsWith('lcp_') ? { authorization: `Bearer ${credential}` } : { cookie: credential }), accept: 'text/event-stream' },
    signal,
  });

/** Opens `status.changes` over real SSE, with the page's cookie or a token. */
async function openStream(api: Stack, credential: string): Promise<Stream> {
  const aborter = new AbortController();
  const res = await askForStream(api, credential, aborter.signal);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const stream: Stream = { events: [], ended: false, close: () => aborter.abort() };
  void (async () => {
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        const event = block.split('\n').find((line) => line.startsWith('event:'));
        if (data && !event) stream.events.push({ at: Date.now(), data: JSON.parse(data) });
        if (data && event === 'event: serialized-error') stream.error = JSON.parse(data);
      }
    }
  })()
    .catch(() => {})
    .finally(() => {
      stream.ended = true;
    });
  // Open once the first event (the stream's own resync) arrived.
  await vi.waitFor(() => expect(stream.events.map((e) => e.data)).toContainEqual({ kind: 'resync' }), { timeout: 10_000 });
  return stream;
}

const cardEvents = (stream: Stream) => stream.events.filter((e) => e.data.kind === 'card');

describe('status.changes over server-sent events', () => {
  it('tells a card becoming ready to its owner only, through every API process', async () => {
    const ownersHere = await openStream(stack, owner.cookie);
    const ownersThere = await openStream(otherApi, owner.cookie);
    const strangers = await openStream(stack, stranger.cookie);
    try {
      const card = await capture(stack, owner, 'streamed to its owner');
      const ready = { kind: 'card', id: card.cardId, status: 'ready' };
      await vi.waitFor(
        () => {
          expect(cardEvents(ownersHere).map((e) => e.data)).toEqual([ready]);
          expect(cardEvents(ownersThere).map((e) => e.data)).toEqual([ready]);
        },
        { timeout: 45_000, interval: 50 },
      );
      const [{ enriched_ms }] = (await sql<{ enriched_ms: number }>(
        stack,
        `SELECT extract(epoch FROM enriched_at) * 1000 AS enriched_ms FROM cards WHERE id = ?`,
        [card.cardId],
      )) as [{ enriched_ms: number }];
      console.log(
        `status.changes: card ready → event on the stream after ${cardEvents(ownersHere)[0]!.at - enriched_ms} ms (this API), ` +
          `${cardEvents(ownersThere)[0]!.at - enriched_ms} ms (the other)`,
      );

      // The stranger's stream was open all along: its first card event is its own capture's.
      const own = await capture(stack, stranger, 'the stranger hears only this');
      await vi.waitFor(() => expect(cardEvents(strangers).map((e) => e.data)).toEqual([{ kind: 'card', id: own.cardId, status: 'ready' }]), {
        timeout: 45_000,
        interval: 50,
      });
      expect(cardEvents(ownersHere)).toHaveLength(1);
      // Ids and statuses only: no user text on the wire of a NOTIFY or a stream.
      expect(JSON.stringify(ownersHere.events)).not.toContain('streamed to its owner');
    } finally {
      for (const stream of [ownersHere, ownersThere, strangers]) stream.close();
    }
  });

  it('tells a sentence translated in the background', async () => {
    const stream = await openStream(otherApi, owner.cookie);
    try {
      const res = await api(stack, { token: owner.token }).POST('/api/sentences', {
        params: { query: { mode: 'async' } },
        headers: asyncHeaders,
        body: { original_text: 'The stream says when I am translated.' },
      });
      expectStatus(res, 202);
      const translated = { kind: 'sentence', id: res.body.sentence.id, status: 'translated' };
      await vi.waitFor(() => expect(stream.events.map((e) => e.data)).toContainEqual(translated), { timeout: 45_000, interval: 50 });
    } finally {
      stream.close();
    }
  });

  it('tells open streams to resync when the listening connection was lost and is back', async () => {
    const stream = await openStream(stack, owner.cookie);
    try {
      const resyncs = () => stream.events.filter((e) => e.data.kind === 'resync').length;
      const before = resyncs();
      await sql(stack, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "lcs_status"'`);
      await vi.waitFor(() => expect(resyncs()).toBe(before + 1), { timeout: 10_000 });
      // And it listens again: the next change still arrives.
      const card = await capture(stack, owner, 'heard after the reconnection');
      await vi.waitFor(() => expect(cardEvents(stream).map((e) => e.data.id)).toContain(card.cardId), { timeout: 45_000, interval: 50 });
    } finally {
      stream.close();
    }
  });

  it('caps open streams per user and per client address: past either, 429 `limit: "streams"` with Retry-After, and room again when one closes', async () => {
    const learner = await newUser(stack);
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await openStream(stack, i % 2 ? learner.cookie : learner.token));
    try {
      const refused = await askForStream(stack, learner.cookie);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ code: 'rate_limited', limit: 'streams' });
      // Another learner from this address still may, up to the address's cap.
      const others = await newUser(stack);
      for (let i = 5; i < PER_ADDRESS; i++) streams.push(await openStream(stack, others.cookie));
      const full = await askForStream(stack, (await newUser(stack)).cookie);
      expect(full.status).toBe(429);
      await full.body?.cancel();
      streams.shift()!.close();
      await vi.waitFor(async () => streams.push(await openStream(stack, learner.cookie)), { timeout: 5_000, interval: 100 });
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it(
    'ends, within a second and in every API process, the streams of a token revoked, a session logged out, ' +
      'signed out everywhere or whose password changed',
    async () => {
      const learner = await newUser(stack);
      const { token: readToken, id: readTokenId } = await mintToken(stack, learner.cookie, { scope: 'read' });
      const login = async () => {
        const res = await api(stack).POST('/api/auth/login', { body: { email: learner.email, password: learner.password } });
        expectStatus(res, 200);
        return res.headers.get('set-cookie')!.split(';')[0]!;
      };
      const endsWithin = async (streams: Stream[], act: () => Promise<unknown>) => {
        await act();
        const acted = Date.now();
        await vi.waitFor(() => expect(streams.map((s) => s.ended)).toEqual(streams.map(() => true)), { timeout: 5_000, interval: 20 });
        return Date.now() - acted;
      };
      const bystanders = [await openStream(otherApi, stranger.cookie), await openStream(otherApi, learner.token)];
      const timings: Record<string, number> = {};
      try {
        const revoked = [await openStream(otherApi, readToken), await openStream(stack, readToken)];
        timings.tokenRevoked = await endsWithin(revoked, async () =>
          expectStatus(await api(stack, { cookie: learner.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: readTokenId } } }), 204),
        );
        // Each ends with an event saying 401, the problem inside it, not a 500 around it.
        for (const stream of revoked) {
          await vi.waitFor(() => expect(stream.error).toBeDefined());
          expect(stream.error.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, problem: { status: 401, code: 'unauthenticated' } });
        }

        const session = await login();
        const loggedOut = [await openStream(otherApi, session)];
        const stays = await openStream(otherApi, learner.cookie);
        timings.loggedOut = await endsWithin(loggedOut, async () => expectStatus(await api(stack, { cookie: session }).POST('/api/auth/logout'), 204));
        expect(stays.ended).toBe(false);

        const everywhere = [stays, await openStream(otherApi, await login()), await openStream(stack, await login())];
        timings.signedOutEverywhere = await endsWithin(everywhere, async () =>
          expectStatus(await api(stack, { cookie: await login() }).POST('/api/auth/logout-everywhere', { body: { revokeTokens: false } }), 200),
        );

        const before = await login();
        const passwordChanged = [await openStream(otherApi, before), await openStream(stack, await login())];
        timings.passwordChanged = await endsWithin(passwordChanged, async () => {
          const res = await api(stack, { cookie: before }).POST('/api/auth/password', {
            body: { currentPassword: learner.password, newPassword: 'another horse battery staple', revokeTokens: false },
          });
          expectStatus(res, 200);
        });
        console.log(`status.changes: a revoked credential's streams ended after ${JSON.stringify(timings)} ms`);
        for (const ms of Object.values(timings)) expect(ms).toBeLessThan(1000);
        // The stranger's stream, and the learner's write token (not revoked), hear on.
        expect(bystanders.map((b) => b.ended)).toEqual([false, false]);
        const card = await capture(stack, learner, 'still heard by the token');
        await vi.waitFor(() => expect(cardEvents(bystanders[1]!).map((e) => e.data.id)).toContain(card.cardId), { timeout: 45_000, interval: 50 });
      } finally {
        for (const stream of bystanders) stream.close();
      }
    },
  );

  it('checks its open streams again when its listener is back, so that a revocation notice lost meanwhile still ends them', async () => {
    const learner = await newUser(stack);
    const { token, id } = await mintToken(stack, learner.cookie, { scope: 'read' });
    const revoked = await openStream(stack, token);
    const kept = await openStream(stack, learner.cookie);
    try {
      // Revoked with no notice, as one sent while the listener was away would be lost.
      await sql(stack, `UPDATE api_tokens SET revoked_at = now() WHERE id = ?`, [id]);
      await sql(stack, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "lcs_status"'`);
      await vi.waitFor(() => expect(revoked.ended).toBe(true), { timeout: 10_000 });
      expect(kept.ended).toBe(false);
    } finally {
      kept.close();
    }
  });

  it('ends its open streams when the server closes, rather than keeping the close waiting', async () => {
    const stream = await openStream(otherApi, owner.cookie);
    await otherApi.close();
    otherApi = undefined!;
    await vi.waitFor(() => expect(stream.ended).toBe(true), { timeout: 5_000 });
  });

  it('refuses a caller without a session or token like any query', async () => {
    expectProblem(await rawHttp(stack, 'GET', '/trpc/status.changes'), 401, 'unauthenticated');
  });
});
