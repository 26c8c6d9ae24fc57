import { defineEntity, p } from '@mikro-orm/postgresql';
import type { CardEnrichment, EnrichmentError } from '../../domain/library-preparation.ts';

/**
 * A captured expression (table `cards`; column meanings at the top of migration 0003).
 * Conflict- and lock-sensitive writes (capture, preparation, refresh) use SQL in
 * src/services/library.ts; the entity serves plain reads by other areas.
 */
export const Card = defineEntity({
  name: 'Card',
  tableName: 'cards',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    text: p.text(),
    normalisedKey: p.text(),
    enrichmentStatus: p.enum(['pending', 'ready', 'failed'] as const),
    enrichment: p.json<CardEnrichment>().nullable(),
    enrichmentError: p.json<EnrichmentError>().nullable(),
    enrichmentAttempt: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    enrichedAt: p.datetime().nullable(),
  },
});

/** A card's spaced-repetition state (SchedulingState of src/domain/scheduling.ts). */
export const CardSchedule = defineEntity({
  name: 'CardSchedule',
  tableName: 'card_schedules',
  properties: {
    cardId: p.uuid().primary(),
    userId: p.uuid(),
    due: p.datetime(),
    stability: p.double(),
    difficulty: p.double(),
    elapsedDays: p.integer(),
    scheduledDays: p.integer(),
    learningSteps: p.integer(),
    reps: p.integer(),
    lapses: p.integer(),
    state: p.enum(['new', 'learning', 'review', 'relearning'] as const),
    lastReview: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});

export const libraryEntities = [Card, CardSchedule];
