import { defineOperation, noInput } from '../../http/operation.ts';
import { progressCredits, progressForecast, progressLibrary, progressReviews, retentionChoice } from './reads.ts';
import {
  progressCreditsSchema,
  progressForecastSchema,
  progressLibrarySchema,
  progressQuerySchema,
  progressReviewsSchema,
  retentionChoiceSchema,
} from './schemas.ts';

const tag = 'progress';

/** The Progress screen at /api/progress and tRPC `progress.*`: one read per chart group, free. */
export const progressOperations = {
  forecast: defineOperation({
    tag,
    summary: 'Reviews falling due on each of the next 30 days, in your time zone',
    auth: 'read',
    input: progressQuerySchema,
    output: progressForecastSchema,
    rest: { method: 'GET', path: '/api/progress/forecast' },
    handler: (ctx, { timeZone }) => progressForecast(ctx, ctx.principal.userId, timeZone),
  }),
  reviews: defineOperation({
    tag,
    summary: 'Reviews per day with their ratings and time, your streak and true retention',
    auth: 'read',
    input: progressQuerySchema,
    output: progressReviewsSchema,
    rest: { method: 'GET', path: '/api/progress/reviews' },
    handler: (ctx, { timeZone }) => progressReviews(ctx, ctx.principal.userId, timeZone),
  }),
  library: defineOperation({
    tag,
    summary: 'Your library by learning state, and expressions captured per week',
    auth: 'read',
    input: progressQuerySchema,
    output: progressLibrarySchema,
    rest: { method: 'GET', path: '/api/progress/library' },
    handler: (ctx, { timeZone }) => progressLibrary(ctx, ctx.principal.userId, timeZone),
  }),
  credits: defineOperation({
    tag,
    summary: 'Credits spent per day by kind, and your balance over the current period',
    auth: 'read',
    input: progressQuerySchema,
    output: progressCreditsSchema,
    rest: { method: 'GET', path: '/api/progress/credits' },
    handler: (ctx, { timeZone }) => progressCredits(ctx, ctx.principal.userId, timeZone),
  }),
  retention: defineOperation({
    tag,
    summary: 'What each desired retention costs and keeps, and your personal optimiser',
    auth: 'read',
    input: noInput,
    output: retentionChoiceSchema,
    rest: { method: 'GET', path: '/api/progress/retention' },
    handler: (ctx) => retentionChoice(ctx, ctx.principal.userId),
  }),
};
