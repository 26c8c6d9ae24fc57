import { z } from 'zod';
import { isoDate } from '../shared-schemas.ts';

/**
 * An IANA time zone name (`Europe/Paris`, `UTC`): checked here as a name, and against PostgreSQL's
 * own list by the reads (./reads.ts). Offsets such as `UTC+3` or `+03:00` are refused: PostgreSQL
 * would read them as POSIX zones, with the sign the other way round.
 */
const timeZoneSchema = z
  .string()
  .max(64, 'at most 64 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z0-9_+-]+)*$/, 'an IANA time zone name, such as Europe/Paris')
  .refine((name) => !/^(UTC|GMT)[+-]/i.test(name), 'an IANA time zone name, such as Europe/Paris (not an offset)')
  .default('UTC')
  .meta({ description: 'Your IANA time zone; days start at 4 am in it, as Anki’s do. UTC when absent.', example: 'Europe/Paris' });

const day = z.string().meta({ description: 'A day in your time zone (from 4 am), YYYY-MM-DD.', example: '2026-11-26' });

export const progressQuerySchema = z.object({ timeZone: timeZoneSchema });

export const progressForecastSchema = z
  .object({
    today: day,
    dueNow: z.number().int().meta({ description: 'Reviewed cards due now, overdue ones included.' }),
    days: z
      .array(z.object({ date: day, due: z.number().int() }))
      .meta({ description: '30 days from today; today counts every card due by its end, overdue ones included.' }),
  })
  .meta({ id: 'ProgressForecast' });

const retentionSchema = z
  .object({
    young: z.number().nullable().meta({ description: 'Share recalled of reviews of cards scheduled 1–20 days before; null without any.' }),
    mature: z.number().nullable().meta({ description: 'The same for cards scheduled 21 days or more before.' }),
    all: z.number().nullable(),
    reviews: z.number().int().meta({ description: 'Reviews counted: same-day steps are not.' }),
  })
  .meta({ id: 'TrueRetention' });

export const progressReviewsSchema = z
  .object({
    today: day,
    streak: z.number().int().meta({ description: 'Days in a row with a review, ending today (or yesterday while today has none yet).' }),
    days: z
      .array(
        z.object({
          date: day,
          again: z.number().int(),
          hard: z.number().int(),
          good: z.number().int(),
          easy: z.number().int(),
          durationMs: z.number().int().meta({ description: 'Time spent on the day’s reviews, each counted up to 60 s.' }),
          timedReviews: z.number().int().meta({ description: 'Reviews whose time was measured.' }),
        }),
      )
      .meta({ description: 'The last 365 days, oldest first.' }),
    retention: z.object({ last7Days: retentionSchema, last30Days: retentionSchema, lastYear: retentionSchema }),
    weeklyRetention: z
      .array(retentionSchema.extend({ week: day.meta({ description: 'The Monday the week starts on.' }) }))
      .meta({ description: 'The last 26 weeks.' }),
  })
  .meta({ id: 'ProgressReviews' });

export const progressLibrarySchema = z
  .object({
    today: day,
    states: z.object({ new: z.number().int(), learning: z.number().int(), review: z.number().int(), relearning: z.number().int() }),
    capturesPerWeek: z.array(z.object({ week: day, captured: z.number().int() })).meta({ description: 'The last 26 weeks, Monday first, oldest first.' }),
  })
  .meta({ id: 'ProgressLibrary' });

export const CREDIT_KINDS = ['capture_preparation', 'work', 'audio', 'page_translation', 'sentence_translation'] as const;

export const progressCreditsSchema = z
  .object({
    today: day,
    periodStart: isoDate,
    periodEnd: isoDate,
    balance: z.number().int(),
    spentPerDay: z
      .array(
        z.object({
          date: day,
          byKind: z.object(Object.fromEntries(CREDIT_KINDS.map((k) => [k, z.number().int()])) as Record<(typeof CREDIT_KINDS)[number], z.ZodNumber>),
        }),
      )
      .meta({ description: 'Credits charged on each of the last 30 days, by kind.' }),
    balanceOverPeriod: z
      .array(z.object({ date: day, balance: z.number().int() }))
      .meta({ description: 'The balance at the end of each day of the current period so far.' }),
  })
  .meta({ id: 'ProgressCredits' });

const workloadPointSchema = z.object({
  desiredRetention: z.number(),
  reviewsPerDay: z.number().meta({ description: 'Expected reviews a day, averaged over a year, at your rate of new expressions.' }),
  minutesPerDay: z.number(),
  rememberedAfterYear: z.number().meta({ description: 'Expressions you would remember after a year.' }),
  rememberedPerMinute: z.number(),
});

export const retentionChoiceSchema = z
  .object({
    desiredRetention: z.number().meta({ description: 'Your current desired retention.' }),
    source: z.enum(['personal', 'default']).meta({ description: 'Whose FSRS weights the curve comes from: yours once applied, else the defaults.' }),
    newPerDay: z.number().meta({ description: 'Expressions captured a day over the last 28 days (at least 1): the rate the curve assumes.' }),
    points: z.array(workloadPointSchema).meta({ description: 'Each desired retention from 0.80 to 0.97.' }),
    bestForTime: z.number().meta({ description: 'The desired retention that keeps the most expressions per minute of review.' }),
    bestIsLowest: z
      .boolean()
      .meta({ description: 'True when that is the lowest value offered: the curve only falls, so the choice is a trade, not an optimum.' }),
    optimiser: z.object({
      longTermReviews: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'Before the first fit: your reviews made a day or more after the card’s previous one; null once fitted.' }),
      reviewsNeeded: z.number().int().meta({ description: 'How many of them a fit needs.' }),
      lastRun: isoDate.nullable(),
      applied: z.boolean().nullable(),
      trainSize: z.number().int().nullable().meta({ description: 'Reviews the latest fit learned from.' }),
      heldOutSize: z.number().int().nullable().meta({ description: 'Your most recent reviews, held out to judge it.' }),
      logLoss: z.number().nullable(),
      defaultLogLoss: z.number().nullable().meta({ description: 'The default weights’ log loss on the same held-out reviews.' }),
    }),
    recallCurve: z
      .array(z.object({ days: z.number(), personal: z.number().nullable(), defaults: z.number() }))
      .meta({ description: 'Recall of an expression first answered good, days later: with your weights (null before a fit) and the defaults.' }),
  })
  .meta({ id: 'RetentionChoice' });
