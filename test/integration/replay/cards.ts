import { randomUUID } from 'node:crypto';
import type { Orm } from '../../../src/db/orm.ts';
import { normaliseExpression } from '../../../src/domain/normalise.ts';

export interface CardSeed {
  text: string;
  translation?: string;
  correctedText?: string | null;
  status?: 'pending' | 'ready' | 'failed';
  state?: 'new' | 'learning' | 'review' | 'relearning';
  due?: Date;
  stability?: number;
  reps?: number;
  createdAt?: Date;
}

/** Inserts a card and its schedule straight into the library tables (issue #3's columns). */
export async function insertCard(orm: Orm, userId: string, seed: CardSeed): Promise<string> {
  const id = randomUUID();
  const status = seed.status ?? 'ready';
  const enrichment =
    status === 'ready'
      ? {
          translation: seed.translation ?? `[fr] ${seed.text}`,
          correctedText: seed.correctedText ?? null,
          correctionNote: seed.correctedText ? 'fixed' : null,
          usage: { register: 'neutral', guidance: `how to use ${seed.text}`, examples: [`An example with ${seed.text}.`] },
          focuses: [],
        }
      : null;
  const state = seed.state ?? 'new';
  const em = orm.em.fork();
  await em.execute(`INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
    id,
    userId,
    seed.text,
    normaliseExpression(seed.text),
    status,
    enrichment ? JSON.stringify(enrichment) : null,
    seed.createdAt ?? new Date(),
  ]);
  await em.execute(
    `INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
     VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?, 0, ?, ?)`,
    [
      id,
      userId,
      seed.due ?? seed.createdAt ?? new Date(),
      seed.stability ?? (state === 'new' ? 0 : 3),
      state === 'new' ? 0 : 5,
      seed.reps ?? (state === 'new' ? 0 : 2),
      state,
      state === 'new' ? null : new Date(Date.now() - 5 * 86_400_000),
    ],
  );
  return id;
}

export const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
