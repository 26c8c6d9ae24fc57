// Issue 15, stage 3: the personal FSRS optimiser as a workflow, on demand and by its weekly Schedule.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIN_LONG_TERM_REVIEWS } from '../../../src/features/replay/optimisation-rules.ts';
import type { RatingName } from '../../../src/domain/replay-rating.ts';
import { learnerScheduling } from '../../../src/features/replay/learner-scheduling.ts';
import { optimisationScheduleId } from '../../../src/temporal/schedules.ts';
import { fsrsOptimisationSweepWorkflow } from '../../../src/workflows/fsrs-optimisation.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { insertCard } from './cards.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAY_MS = 86_400_000;

/**
 * A learner who forgets faster than FSRS's defaults assume: recall after t days is
 * (1 + t / 9S)^-1, a first memory lasts about a day, a success multiplies stability by 1.8 and a
 * lapse divides it by three. Reviews come at 1–3 × S. Deterministic (a fixed LCG), so the figures
 * are the same on every run.
 */
async function seedReviewLog(user: TestUser, cards: number, reviewsPerCard: number, options: { learningStep?: boolean } = {}): Promise<number> {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const start = Date.now() - 400 * DAY_MS;
  const rows: string[] = [];
  for (let c = 0; c < cards; c++) {
    const cardId = await insertCard(stack.orm, user.userId, { text: `synthetic ${c}`, state: 'review' });
    let day = c % 90;
    let stability = 0.6 + random() * 0.8;
    const review = (rating: RatingName) =>
      rows.push(
        `('${cardId}', '${user.userId}', '${rating}', 'review', now(), 1, 5, 0, 0, 0, 0, ` +
          `'${new Date(start + day * DAY_MS + c * 1000 + rows.length * 10).toISOString()}', false, false, 0, 3)`,
      );
    review(options.learningStep ? 'again' : 'good');
    if (options.learningStep) review('good'); // moments later, the same day: a learning step
    for (let k = 1; k < reviewsPerCard; k++) {
      const elapsed = Math.max(1, Math.round(stability * (1 + 2 * random())));
      day += elapsed;
      const recalled = random() < 1 / (1 + elapsed / (9 * stability));
      review(recalled ? (random() < 0.2 ? 'easy' : 'good') : 'again');
      stability = recalled ? stability * 1.8 : Math.max(0.3, stability / 3);
    }
  }
  await stack.orm.em.fork().execute(
    `INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
       learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count) VALUES ${rows.join(', ')}`,
  );
  return rows.length;
}

const settings = async (user: TestUser) => bodyOf(await api(stack, { token: user.token }).GET('/api/replay/settings'), 200);
const optimise = (user: TestUser) => api(stack, { token: user.token }).POST('/api/replay/optimise');
const versions = async (user: TestUser) =>
  (await stack.orm.em.fork().execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM fsrs_parameters WHERE user_id = ?`, [user.userId]))[0]!.n;
const undispatched = async (user: TestUser) =>
  (
    await stack.orm.em
      .fork()
      .execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM workflow_outbox WHERE user_id = ? AND dispatched_at IS NULL`, [user.userId])
  )[0]!.n;

describe('the personal FSRS optimiser', () => {
  it('refuses a fit until the log can train one, and says how far the learner is', async () => {
    const user = await newUser(stack);
    await seedReviewLog(user, 20, 4);
    const refused = await optimise(user);
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toContain(`${MIN_LONG_TERM_REVIEWS} reviews`);
    expect((await settings(user)).personalSchedule).toEqual({ longTermReviews: 60, reviewsNeeded: MIN_LONG_TERM_REVIEWS, latest: null });
    expectProblem(
      await api(stack, { token: user.token.replace(/.$/, (last) => (last === '0' ? '1' : '0')) }).POST('/api/replay/optimise'),
      401,
      'unauthenticated',
    );
  });

  it('fits the learner’s weights on demand, applies them when they beat the defaults on held-out reviews, and fits one log once', async () => {
    const user = await newUser(stack);
    const reviews = await seedReviewLog(user, 400, 7);
    const before = await settings(user);
    expect(before.personalSchedule.longTermReviews).toBe(400 * 6);

    const queued = await optimise(user);
    expectStatus(queued, 202);
    expect(queued.body).toMatchObject({ queued: true, longTermReviews: 2400, latest: null });
    const latest = await vi.waitFor(
      async () => {
        const fit = (await settings(user)).personalSchedule.latest;
        expect(fit).not.toBeNull();
        return fit!;
      },
      { timeout: 60_000, interval: 250 },
    );

    console.log(
      `optimiser on ${reviews} synthetic reviews: held-out log loss ${latest.logLoss.toFixed(4)} vs defaults ${latest.baselineLogLoss.toFixed(4)}, ` +
        `RMSE ${latest.rmse.toFixed(4)} vs ${latest.baselineRmse.toFixed(4)}`,
    );
    expect(latest).toMatchObject({ version: 1, logSize: 2400, applied: true });
    expect(latest.logLoss).toBeLessThan(latest.baselineLogLoss);
    expect(latest.rmse).toBeLessThanOrEqual(latest.baselineRmse);
    const { weights } = await learnerScheduling(stack.orm.em.fork(), user.userId);
    expect(weights).toHaveLength(21);
    // The same log again: queued, and refused by Temporal as work already done.
    expect((await optimise(user)).status).toBe(202);
    await vi.waitFor(async () => expect(await undispatched(user)).toBe(0), { timeout: 20_000, interval: 250 });
    expect(await versions(user)).toBe(1);

    // Replay schedules with them from the next review on.
    const session = bodyOf(await api(stack, { token: user.token }).GET('/api/replay', { params: { query: { count: '10' } } }), 200);
    const answered = await api(stack, { token: user.token }).POST('/api/replay', {
      body: { itemId: session.items[0]!.itemId, usedHint: false, autoFilled: false, unaidedErrors: 0 },
    });
    expectStatus(answered, 200);

    // On tRPC alike.
    const viaTrpc = await rawHttp(stack, 'GET', '/trpc/replay.settings', { token: user.token });
    expect(viaTrpc.body.result.data.personalSchedule.latest).toMatchObject({ version: 1, applied: true });
  });

  // fsrs-rs aborts the whole process (the worker) on an item of same-day reviews: none may reach it.
  it('runs weekly by Schedule, and the pass queues a fit for a learner who reviewed since their last, same-day learning steps and all', async () => {
    const schedule = await stack.temporal.schedule.getHandle(optimisationScheduleId(stack.config.temporal.taskQueue)).describe();
    expect(schedule.spec.intervals?.map((i) => i.every)).toEqual([7 * DAY_MS]);
    expect(schedule.action).toMatchObject({ workflowType: 'fsrsOptimisationSweepWorkflow', taskQueue: stack.config.temporal.taskQueue });

    const user = await newUser(stack);
    await seedReviewLog(user, 120, 4, { learningStep: true });
    const pass = await stack.temporal.workflow.execute(fsrsOptimisationSweepWorkflow, {
      taskQueue: stack.config.temporal.taskQueue,
      workflowId: `test-optimisation-pass/${user.userId}`,
      args: [],
    });
    expect(pass.queued).toBeGreaterThanOrEqual(1);
    const fit = await vi.waitFor(
      async () => {
        const latest = (await settings(user)).personalSchedule.latest;
        expect(latest).not.toBeNull();
        return latest!;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(fit.logSize).toBe(360);
  });
});
