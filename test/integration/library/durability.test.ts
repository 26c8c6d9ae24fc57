import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { describe, expect, it, vi } from 'vitest';
import { createModelClient } from '../../../src/model/model-client.ts';
import { prepareCard } from '../../../src/features/library/preparation.ts';
import { deleteCard } from '../../../src/features/library/service.ts';
import { relayOutboxOnce, startOutboxRelay } from '../../../src/temporal/outbox-relay.ts';
import { outcomeKey } from '../../../src/temporal/search-attributes.ts';
import type { Stack } from '../../support/stack.ts';
import { CLIENT_ATTEMPTS, countedTemporalClient } from '../../support/counted-temporal.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, preparationCalls, preparationCharges, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started), { fakeCost: '0.00001' }); // 1 credit per enrichment

const outboxRows = (cardId: string) =>
  stack.orm.em
    .fork()
    .execute<{ dispatched_at: Date | null }[]>(`SELECT dispatched_at FROM workflow_outbox WHERE workflow_id = ?`, [`card-enrichment/${cardId}`]);

/** This file's rows only: other files' tests share the database. */
const ownQueue = () => ({ taskQueue: stack.config.temporal.taskQueue });

/** A client of the same Temporal server whose workflow starts take `ms` longer, as during an outage. */
/** A Temporal client whose workflow starts wait until `release()`: a relay caught in the middle of its Temporal call. */
function heldStartingClient(): { client: Client; starts: () => number; release: () => void; released: () => boolean } {
  let starts = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let released = false;
  void gate.then(() => (released = true));
  const held = async <T>(next: () => Promise<T>) => {
    starts++;
    await gate;
    return next();
  };
  const client = new Client({
    connection: stack.temporal.connection,
    namespace: stack.config.temporal.namespace,
    interceptors: { workflow: [{ start: (input, next) => held(() => next(input)), startWithDetails: (input, next) => held(() => next(input)) }] },
  });
  return { client, starts: () => starts, release, released: () => released };
}

describe('a capture while no worker runs', () => {
  it('loses nothing: its outbox row waits, and the relay of the next worker starts the preparation', async () => {
    await stack.stopWorker();
    let card;
    try {
      card = await capture(stack, user, 'survives a crash after commit');
      expect(await outboxRows(card.cardId)).toEqual([{ dispatched_at: null }]);
    } finally {
      await stack.startWorker();
    }
    await waitForStatus(stack, user, card.cardId, 'ready');
    expect((await outboxRows(card.cardId))[0]!.dispatched_at).not.toBeNull();
    expect(await preparationCharges(stack, user.userId)).toContainEqual(expect.objectContaining({ ref: card.cardId }));
  });
});

describe('the outbox relay', () => {
  it('holds no row lock through its Temporal call: a deletion meanwhile answers at once, and dispatched_at is when the start happened', async () => {
    await stack.stopWorker(); // this file's own relay must not take the rows first
    try {
      const deleted = await capture(stack, user, 'deleted while the relay starts it');
      const kept = await capture(stack, user, 'started by a slow relay');
      const held = heldStartingClient();
      const relaying = relayOutboxOnce(stack.orm, held.client, ownQueue());
      await vi.waitFor(() => expect(held.starts()).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 20 });

      // The deletion must answer while the relay's Temporal calls are still held: were a row lock held through
      // them, it would wait for this release, which only ends such a hang (a hang guard, not a latency goal).
      const hangGuard = setTimeout(held.release, 20_000);
      const deletion = await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: deleted.cardId } } });
      clearTimeout(hangGuard);
      expect(deletion.status).toBe(204);
      expect(held.released(), 'the deletion waited for the relay: a row lock was held through its Temporal call').toBe(false);

      const em = stack.orm.em.fork();
      const [{ releasedAt }] = (await em.execute<{ releasedAt: Date }[]>(`SELECT clock_timestamp() AS "releasedAt"`)) as [{ releasedAt: Date }];
      held.release();
      expect(await relaying).toBeGreaterThanOrEqual(2);
      const [row] = await outboxRows(kept.cardId);
      expect(new Date(row!.dispatched_at!).getTime()).toBeGreaterThanOrEqual(new Date(releasedAt).getTime());
    } finally {
      await stack.startWorker();
    }
  });
});

describe('a relay whose worker had no room', () => {
  it('starts what waits once there is room: a pass that found none does not end the relay', async () => {
    await stack.stopWorker(); // this file's own relay must not take the row first
    let card;
    try {
      card = await capture(stack, user, 'started once its worker had room');
      let asked = 0;
      const stopRelay = startOutboxRelay(stack.orm, stack.temporal, {
        ...ownQueue(),
        databaseUrl: stack.orm.config.get('clientUrl'),
        pollEveryMs: 100,
        workerRoom: () => (++asked <= 3 ? 0 : 200),
      });
      try {
        await vi.waitFor(async () => expect((await outboxRows(card!.cardId))[0]!.dispatched_at).not.toBeNull(), { timeout: 30_000, interval: 100 });
      } finally {
        await stopRelay();
      }
      expect(asked).toBeGreaterThan(3);
    } finally {
      await stack.startWorker();
    }
    await waitForStatus(stack, user, card.cardId, 'ready');
  });
});

describe('a refresh while the failed run is still closing', () => {
  it('starts the new run even when the old one closes between the refused start and the look at it', async () => {
    await stack.stopWorker(); // the first run stays RUNNING, as a run closing after recording its failure does
    const card = await capture(stack, user, 'refreshed while its failed run closes');
    const workflowId = `card-enrichment/${card.cardId}`;
    try {
      const em = stack.orm.em.fork();
      const rowIds = async () =>
        (await em.execute<{ id: string }[]>(`SELECT id FROM workflow_outbox WHERE workflow_id = ? ORDER BY id`, [workflowId])).map((r) => String(r.id));
      expect(await relayOutboxOnce(stack.orm, stack.temporal, ownQueue())).toBeGreaterThanOrEqual(1);
      await em.execute(`UPDATE cards SET enrichment_status = 'failed', enrichment_error = ?::jsonb WHERE id = ?`, [
        JSON.stringify({ code: 'service_unavailable', message: 'The work timed out.' }),
        card.cardId,
      ]);
      expect((await api(stack, { token: user.token }).PATCH('/api/library', { body: { cardId: card.cardId, action: 'refresh_enrichment' } })).status).toBe(202);
      const refreshRow = (await rowIds())[1]!;

      // Refused while the first run runs; by the time the dispatch looks, that run has closed failing.
      let closedMeanwhile = false;
      const closeOnRefusal = async <T>(start: () => Promise<T>) => {
        try {
          return await start();
        } catch (error) {
          if (error instanceof WorkflowExecutionAlreadyStartedError && !closedMeanwhile) {
            closedMeanwhile = true;
            await stack.temporal.workflow.getHandle(workflowId).terminate('closing after recording its failure');
          }
          throw error;
        }
      };
      const client = new Client({
        connection: stack.temporal.connection,
        namespace: stack.config.temporal.namespace,
        interceptors: {
          workflow: [{ start: (input, next) => closeOnRefusal(() => next(input)), startWithDetails: (input, next) => closeOnRefusal(() => next(input)) }],
        },
      });
      expect(await relayOutboxOnce(stack.orm, client, ownQueue())).toBe(1); // the refresh's row, the only one pending
      expect(closedMeanwhile).toBe(true);
      expect((await stack.temporal.workflow.getHandle(workflowId).describe()).memo?.outboxId).toBe(refreshRow);
    } finally {
      await stack.startWorker();
    }
    await waitForStatus(stack, user, card.cardId, 'ready');
  });
});

describe('concurrent identical captures', () => {
  it('100 at once → one card, one workflow, one charge', async () => {
    const racer = await newUser(stack);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api(stack, { token: racer.token }).POST('/api/library', { body: { text: i % 2 ? 'Once in a blue moon' : 'once in a BLUE moon!' } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(99);
    const cardIds = new Set(responses.map((r) => bodyOf(r, 200, 202).card.cardId));
    expect(cardIds.size).toBe(1);
    const [cardId] = [...cardIds] as [string];
    expect(await outboxRows(cardId)).toHaveLength(1);
    await waitForStatus(stack, racer, cardId, 'ready');
    expect(await preparationCharges(stack, racer.userId)).toHaveLength(1);
    const [{ count }] = await stack.orm.em.fork().execute<any[]>(`SELECT count(*) FROM cards WHERE user_id = ?`, [racer.userId]);
    expect(Number(count)).toBe(1);
  });
});

describe('delete during preparation', () => {
  it('cancels the preparation, which completes with outcome deleted; the card never comes back and nothing is charged', async () => {
    stack.fake.setLatency(2_000);
    let answered = false;
    stack.fake.setResponder('capture_preparation', (input) => {
      answered = true;
      return {
        translation: `[fr] ${input.text}`,
        correctedText: null,
        correctionNote: null,
        usage: { register: 'neutral', guidance: 'g', examples: ['e'] },
        focuses: [{ kind: 'meaning', note: 'n' }],
        sense: null,
      };
    });
    const card = await capture(stack, user, 'deleted while preparing');
    await vi.waitFor(() => expect(preparationCalls(stack).length).toBeGreaterThan(0), { timeout: 20_000 });
    expect((await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: card.cardId } } })).status).toBe(204);

    const handle = stack.temporal.workflow.getHandle(`card-enrichment/${card.cardId}`);
    await expect(handle.result()).resolves.toEqual({ cardId: card.cardId, outcome: 'deleted' });
    const closed = await handle.describe();
    expect(closed.status.name).toBe('COMPLETED');
    expect(closed.typedSearchAttributes.get(outcomeKey)).toBe('deleted');
    // Past the moment the model answers, and a while after, the card stays gone and unpaid.
    await vi.waitFor(() => expect(answered).toBe(true), { timeout: 20_000 });
    for (let i = 0; i < 10; i++) {
      expectProblem(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } }), 404, 'not_found');
      const rows = await stack.orm.em.fork().execute<any[]>(`SELECT 1 FROM cards WHERE id = ?`, [card.cardId]);
      expect(rows).toEqual([]);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId)).toEqual([]);

    stack.fake.reset();
    const again = await capture(stack, user, 'deleted while preparing');
    expect(again.cardId).not.toBe(card.cardId);
    await waitForStatus(stack, user, again.cardId, 'ready');
  });

  it('answers within seconds when Temporal is unreachable: the card is gone, the cancellation is abandoned', async () => {
    const card = await capture(stack, user, 'deleted while Temporal is down');
    // The deletion's deadline must end the cancellation before the client's own retries run out, not wait them out.
    const counted = countedTemporalClient('127.0.0.1:1');
    const unreachable = counted.client;
    try {
      await deleteCard(stack.context({ temporal: unreachable }), user.userId, card.cardId);
      expect(counted.attempts()).toBeGreaterThan(0);
      expect(counted.attempts(), "the deletion waited out the Temporal client's own retries").toBeLessThan(CLIENT_ATTEMPTS);
      expectProblem(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } }), 404, 'not_found');
    } finally {
      await unreachable.connection.close();
    }
  });

  it('discards a preparation that was not started yet', async () => {
    await stack.stopWorker(); // no relay either
    try {
      const card = await capture(stack, user, 'deleted before its start');
      expect(await outboxRows(card.cardId)).toHaveLength(1);
      expect((await api(stack, { token: user.token }).DELETE('/api/library', { body: { cardId: card.cardId } })).status).toBe(204);
      expect(await outboxRows(card.cardId)).toEqual([]);
    } finally {
      await stack.startWorker();
    }
  });
});

describe('a retried preparation attempt', () => {
  it('after its result was stored: no second model call, no second charge', async () => {
    const card = await capture(stack, user, 'retried after storing');
    await waitForStatus(stack, user, card.cardId, 'ready');
    const calls = preparationCalls(stack).length;
    // What the activity does when Temporal retries it after a crash between commit and completion.
    const model = createModelClient(stack.config.model);
    expect(await prepareCard(stack.context({ model }), { cardId: card.cardId, attempt: 1 })).toEqual({ outcome: 'ready' });
    expect(preparationCalls(stack).length).toBe(calls);
    expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId)).toHaveLength(1);
  });

  it('of a deleted card: nothing stored, nothing charged', async () => {
    const model = createModelClient(stack.config.model);
    const missing = '00000000-0000-4000-8000-000000000001';
    expect(await prepareCard(stack.context({ model }), { cardId: missing, attempt: 1 })).toEqual({ outcome: 'gone' });
  });
});
