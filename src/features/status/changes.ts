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
  /** A card's or a sentence's settled status; an import's state, or `progress` while it runs (issue 26). */
  status: z.enum(['ready', 'failed', 'translated', 'saving', 'preparing', 'waiting_for_credits', 'completed', 'cancelled', 'progress']),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

/**
 * Announces a settled status, without waiting, in a statement of its own after the commit: a
 * NOTIFY inside the transaction would hold the database-wide notify lock through its commit (the
 * capture pipeline's top wait; see wakeRelay in src/temporal/workflow-starter.ts). A lost
 * announcement costs the page its slow fallback poll, never a wrong status.
 */
export function announceStatusChange(em: Em, change: StatusChange): void {
  run(em.fork(), sql`SELECT pg_notify(${STATUS_CHANNEL}, ${JSON.stringify(change)})`).catch(() => {});
}
