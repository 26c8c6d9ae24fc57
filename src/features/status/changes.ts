import { z } from 'zod';
import type { Em } from '../../db/orm.ts';
import { run, sql } from '../../db/sql.ts';

/**
 * Live status: a card's preparation or a sentence's translation that settled is announced on this
 * channel after its commit; every API process listens (src/features/status/hub.ts) and passes it
 * to its owner's open streams.
 */
export const STATUS_CHANNEL = 'lcs_status';

/** What is announced: ids and a status, never user text (a NOTIFY payload is visible to every listener). */
export const statusChangeSchema = z.object({
  userId: z.string(),
  kind: z.enum(['card', 'sentence', 'import']),
  id: z.string(),
  /**
   * `waiting`: still pending, waiting out an outage of the model provider (the card's `enrichmentWaiting`, the sentence's
   * `waiting`); an import's state, or `progress` while it runs (issue 26).
   */
  status: z.enum(['ready', 'failed', 'translated', 'waiting', 'saving', 'preparing', 'waiting_for_credits', 'completed', 'cancelled', 'progress']),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

/**
 * Announces a settled status, without waiting, in a statement of its own after the commit: a
 * NOTIFY inside the transaction would hold the database-wide notify lock through its commit (the
 * capture pipeline's top wait; see wakeRelay in src/temporal/workflow-starter.ts). A lost
 * announcement costs the page its slow fallback poll, never a wrong status.
 *
 * One statement at a time per process: the changes settled while one is on its way go together in
 * the next, one notification each (a worker preparing cards sent a statement per card; under load
 * they now share a few).
 */
export function announceStatusChange(em: Em, change: StatusChange): void {
  const driver = em.getDriver();
  const queue = queues.get(driver) ?? queues.set(driver, { sending: false, changes: [] }).get(driver)!;
  queue.changes.push(JSON.stringify(change));
  if (!queue.sending) void sendQueued(em, queue);
}

/** Per database driver (a process's ORM): the announcements waiting for the one on its way. */
const queues = new WeakMap<object, { sending: boolean; changes: string[] }>();
/** At most this many notifications in one statement. */
const ANNOUNCE_BATCH = 500;

async function sendQueued(em: Em, queue: { sending: boolean; changes: string[] }): Promise<void> {
  queue.sending = true;
  try {
    while (queue.changes.length > 0) {
      const batch = queue.changes.splice(0, ANNOUNCE_BATCH);
      await run(em.fork(), sql`SELECT pg_notify(${STATUS_CHANNEL}, change) FROM unnest(${batch}::text[]) AS change`).catch(() => {});
    }
  } finally {
    queue.sending = false;
  }
}

/**
 * Credentials that stopped working: one session (by its id's hash: the id is a secret, and a
 * NOTIFY payload is visible to every listener), one token, or all of either for the user. Every
 * API process ends the matching open streams at once (src/features/status/hub.ts); without this a
 * stream would keep hearing the learner's events for the rest of its life (minutes).
 */
export const revocationSchema = z.object({
  revoked: z.object({
    userId: z.string(),
    sessionHash: z.string().optional(),
    tokenId: z.string().optional(),
    allSessions: z.boolean().optional(),
    allTokens: z.boolean().optional(),
  }),
});
export type Revocation = z.infer<typeof revocationSchema>['revoked'];

/**
 * Announces a revocation from inside the revoking transaction: NOTIFY is delivered at its commit,
 * so a revocation that rolls back announces nothing, and one that commits is announced
 * (revocations are rare: the notify lock they take at commit costs nothing).
 */
export const announceRevocation = (tx: Em, revoked: Revocation) => run(tx, sql`SELECT pg_notify(${STATUS_CHANNEL}, ${JSON.stringify({ revoked })})`);
