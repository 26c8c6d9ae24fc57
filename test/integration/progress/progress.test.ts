// Issue 28: the Progress screen's reads over a seeded history, on the real PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressCredits, progressForecast, progressLibrary, progressReviews } from '../../../src/features/progress/reads.ts';
import { api, bodyOf, expectProblem } from '../../support/api.ts';
import { learnerZone } from '../../support/learner-clock.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { insertCard } from '../replay/cards.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

type Rating = 'again' | 'hard' | 'good' | 'easy';
interface Review {
  at: string;
  rating?: Rating;
  scheduledDays?: number;
  durationMs?: number | null;
}

const exec = (text: string, params: unknown[] = []) => stack.orm.em.fork().execute(text, params);

/** Reviews of one card, inserted as Replay inserts them (the trigger keeps review_quarters). */
async function seedReviews(user: TestUser, reviews: Review[], cardId?: string): Promise<string> {
  const card = cardId ?? (await insertCard(stack.orm, user.userId, { text: `card ${randomUUID()}`, state: 'review' }));
  for (const r of reviews) {
    await exec(
      `INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
         learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count, duration_ms)
       VALUES (?, ?, ?, 'review', now(), 1, 5, 0, 0, ?, 0, ?, false, false, 0, 3, ?)`,
      [card, user.userId, r.rating ?? 'good', r.scheduledDays ?? 3, r.at, r.durationMs === undefined ? 5_000 : r.durationMs],
    );
  }
  return card;
}

const reviewsOn = (body: Awaited<ReturnType<typeof progressReviews>>, date: string) => {
  const day = body.days.find((d) => d.date === date);
  return day ? day.again + day.hard + day.good + day.easy : undefined;
};

describe('the learner day: from 4 am in the learner’s time zone', () => {
  it('puts reviews at 03:59 and 04:00 local on different days, in whole-, half- and quarter-hour zones and across DST', async () => {
    const user = await newUser(stack);
    await seedReviews(user, [
      // New York, EST: 03:59 local is 08:59Z, 04:00 is 09:00Z.
      { at: '2026-01-15T08:59:00Z' },
      { at: '2026-01-15T09:00:00Z' },
      // New York, the day clocks go forward (2026-03-08, 02:00 → 03:00): 04:00 EDT is 08:00Z.
      { at: '2026-03-08T07:59:00Z' },
      { at: '2026-03-08T08:00:00Z' },
    ]);
    const now = new Date('2026-03-10T15:00:00Z');
    const ny = await progressReviews(stack.context(), user.userId, 'America/New_York', now);
    expect(ny.today).toBe('2026-03-10');
    expect(reviewsOn(ny, '2026-01-14')).toBe(1);
    expect(reviewsOn(ny, '2026-01-15')).toBe(1);
    expect(reviewsOn(ny, '2026-03-07')).toBe(1);
    expect(reviewsOn(ny, '2026-03-08')).toBe(1);

    const other = await newUser(stack);
    await seedReviews(other, [
      // Kathmandu, +5:45: 04:00 local is 22:15Z the day before.
      { at: '2026-02-01T22:14:00Z' },
      { at: '2026-02-01T22:15:00Z' },
      // Kolkata, +5:30: 04:00 local is 22:30Z the day before.
      { at: '2026-02-05T22:29:00Z' },
      { at: '2026-02-05T22:30:00Z' },
    ]);
    const kathmandu = await progressReviews(stack.context(), other.userId, 'Asia/Kathmandu', now);
    expect(reviewsOn(kathmandu, '2026-02-01')).toBe(1);
    expect(reviewsOn(kathmandu, '2026-02-02')).toBe(1);
    const kolkata = await progressReviews(stack.context(), other.userId, 'Asia/Kolkata', now);
    expect(reviewsOn(kolkata, '2026-02-05')).toBe(1);
    expect(reviewsOn(kolkata, '2026-02-06')).toBe(1);
    // In UTC, 04:00Z is the boundary: all four fall on the 1st and the 5th.
    const utc = await progressReviews(stack.context(), other.userId, 'UTC', now);
    expect(reviewsOn(utc, '2026-02-01')).toBe(2);
    expect(reviewsOn(utc, '2026-02-05')).toBe(2);
  });

  it('says which day is today in the learner’s zone, before and after 4 am', async () => {
    const user = await newUser(stack);
    const before = await progressReviews(stack.context(), user.userId, 'Europe/Paris', new Date('2026-06-10T01:59:00Z')); // 03:59 CEST
    const after = await progressReviews(stack.context(), user.userId, 'Europe/Paris', new Date('2026-06-10T02:00:00Z'));
    expect([before.today, after.today]).toEqual(['2026-06-09', '2026-06-10']);
    expect(after.days).toHaveLength(365);
    expect(after.days.at(-1)!.date).toBe('2026-06-10');
  });
});

describe('progress.reviews', () => {
  it('counts ratings, capped time, true retention (same-day steps excluded) and the streak', async () => {
    const user = await newUser(stack);
    const now = new Date('2026-05-20T12:00:00Z');
    await seedReviews(user, [
      { at: '2026-05-20T10:00:00Z', rating: 'good', scheduledDays: 5 }, // young, passed
      { at: '2026-05-20T10:01:00Z', rating: 'again', scheduledDays: 30 }, // mature, failed
      { at: '2026-05-20T10:02:00Z', rating: 'again', scheduledDays: 0, durationMs: 3_600_000 }, // same-day step: in neither; time capped at 60 s
      { at: '2026-05-19T10:00:00Z', rating: 'easy', scheduledDays: 25, durationMs: null }, // mature, passed, not timed
      { at: '2026-05-18T10:00:00Z', rating: 'hard', scheduledDays: 2 },
      // A gap on the 17th: the streak is three days.
      { at: '2026-05-16T10:00:00Z', rating: 'good', scheduledDays: 1 },
    ]);
    const body = await progressReviews(stack.context(), user.userId, 'UTC', now);
    expect(body.streak).toBe(3);
    const today = body.days.at(-1)!;
    expect(today).toEqual({ date: '2026-05-20', again: 2, hard: 0, good: 1, easy: 0, durationMs: 5_000 + 5_000 + 60_000, timedReviews: 3 });
    expect(body.days.find((d) => d.date === '2026-05-19')).toMatchObject({ easy: 1, durationMs: 0, timedReviews: 0 });
    expect(body.retention.last7Days).toEqual({ young: 3 / 3, mature: 1 / 2, all: 4 / 5, reviews: 5 });
    expect(body.weeklyRetention.at(-1)).toMatchObject({ week: '2026-05-18', young: 1, mature: 0.5, reviews: 4 });
    expect(body.weeklyRetention).toHaveLength(26);

    // Today not yet reviewed: yesterday's streak still stands.
    const tomorrow = await progressReviews(stack.context(), user.userId, 'UTC', new Date('2026-05-21T12:00:00Z'));
    expect(tomorrow.streak).toBe(3);
    const dayAfter = await progressReviews(stack.context(), user.userId, 'UTC', new Date('2026-05-22T12:00:00Z'));
    expect(dayAfter.streak).toBe(0);
  });

  it('counts a streak longer than the window over the whole history', async () => {
    const user = await newUser(stack);
    const card = await seedReviews(user, []);
    await exec(
      `INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
         learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count)
       SELECT ?, ?, 'good', 'review', now(), 1, 5, 0, 0, 1, 0, timestamptz '2026-05-20T12:00:00Z' - n * interval '1 day', false, false, 0, 3
       FROM generate_series(0, 399) AS n`,
      [card, user.userId],
    );
    const body = await progressReviews(stack.context(), user.userId, 'UTC', new Date('2026-05-20T13:00:00Z'));
    expect(body.streak).toBe(400);
  });

  it('keeps review_quarters equal to the log through an undo, a card’s deletion and an account’s', async () => {
    const user = await newUser(stack);
    const kept = await seedReviews(user, [{ at: '2026-04-01T10:00:00Z' }, { at: '2026-04-01T10:05:00Z', rating: 'again' }]);
    const gone = await seedReviews(user, [{ at: '2026-04-01T10:07:00Z', rating: 'easy' }, { at: '2026-04-02T10:00:00Z' }]);
    await exec(`DELETE FROM review_logs WHERE id = (SELECT max(id) FROM review_logs WHERE card_id = ?)`, [kept]); // an undo
    await exec(`DELETE FROM cards WHERE id = ?`, [gone]);
    const [fromLog] = await exec(`SELECT count(*)::int AS n, count(*) FILTER (WHERE rating = 'good')::int AS good FROM review_logs WHERE user_id = ?`, [
      user.userId,
    ]);
    const [fromQuarters] = await exec(
      `SELECT sum(reviews)::int AS n, sum(good)::int AS good, sum(easy)::int AS easy, sum(again)::int AS again FROM review_quarters WHERE user_id = ?`,
      [user.userId],
    );
    expect(fromLog).toEqual({ n: 1, good: 1 });
    expect(fromQuarters).toEqual({ n: 1, good: 1, easy: 0, again: 0 });
    await exec(`DELETE FROM users WHERE id = ?`, [user.userId]);
    expect(await exec(`SELECT 1 FROM review_quarters WHERE user_id = ?`, [user.userId])).toEqual([]);
  });
});

describe('progress.forecast, progress.library and progress.credits', () => {
  it('spreads due reviews over the learner’s days, overdue ones today, cards not ready and new cards apart', async () => {
    const user = await newUser(stack);
    const now = new Date('2026-07-01T12:00:00Z');
    await insertCard(stack.orm, user.userId, { text: 'overdue', state: 'review', due: new Date('2026-06-20T12:00:00Z') });
    // 03:30 JST on the 2nd: still the 1st
    await insertCard(stack.orm, user.userId, { text: 'tomorrow 03:30 Tokyo', state: 'review', due: new Date('2026-07-01T18:30:00Z') });
    await insertCard(stack.orm, user.userId, { text: 'tomorrow 04:00 Tokyo', state: 'review', due: new Date('2026-07-01T19:00:00Z') });
    await insertCard(stack.orm, user.userId, { text: 'far', state: 'review', due: new Date('2026-09-01T12:00:00Z') });
    await insertCard(stack.orm, user.userId, { text: 'pending', state: 'review', status: 'pending', due: new Date('2026-07-02T12:00:00Z') });
    await insertCard(stack.orm, user.userId, { text: 'new', state: 'new' });
    const body = await progressForecast(stack.context(), user.userId, 'Asia/Tokyo', now);
    expect(body.today).toBe('2026-07-01');
    expect(body.dueNow).toBe(1);
    expect(body.days).toHaveLength(30);
    expect(body.days.slice(0, 3)).toEqual([
      { date: '2026-07-01', due: 2 },
      { date: '2026-07-02', due: 1 },
      { date: '2026-07-03', due: 0 },
    ]);
    expect(body.days.reduce((a, d) => a + d.due, 0)).toBe(3);

    const library = await progressLibrary(stack.context(), user.userId, 'Asia/Tokyo', now);
    expect(library.states).toEqual({ new: 1, learning: 0, review: 5, relearning: 0 });
    expect(library.capturesPerWeek).toHaveLength(26);
    expect(library.capturesPerWeek.at(-1)!.week).toBe('2026-06-29'); // the Monday
  });

  it('counts captures in the learner’s weeks', async () => {
    const user = await newUser(stack);
    // Monday 2026-06-29 03:00 in New York is still Sunday's learner day: the week before.
    await insertCard(stack.orm, user.userId, { text: 'sunday night', createdAt: new Date('2026-06-29T07:00:00Z') });
    await insertCard(stack.orm, user.userId, { text: 'monday morning', createdAt: new Date('2026-06-29T09:00:00Z') });
    const library = await progressLibrary(stack.context(), user.userId, 'America/New_York', new Date('2026-07-01T12:00:00Z'));
    expect(library.capturesPerWeek.slice(-2)).toEqual([
      { week: '2026-06-22', captured: 1 },
      { week: '2026-06-29', captured: 1 },
    ]);
  });

  it('counts charges per day by kind, never a grant or an expiry, and the balance day by day', async () => {
    const user = await newUser(stack);
    const [wallet] = (await exec(`SELECT balance FROM wallets WHERE user_id = ?`, [user.userId])) as [{ balance: number }];
    // The wallet's period opened at a fixed instant, not at the hour the test runs (opened at 02:30 UTC, the charges
    // an hour apart after it straddled the 4 am day change and the first day lost one).
    const start = new Date('2026-05-01T02:30:00Z');
    await exec(`UPDATE wallets SET period_anchor = ?, period_start = ?, period_end = ? WHERE user_id = ?`, [
      start,
      start,
      new Date('2026-06-01T02:30:00Z'),
      user.userId,
    ]);
    const firstDayStart = Date.parse('2026-05-01T04:00:00Z');
    const at = (hours: number) => new Date(firstDayStart + hours * 3_600_000).toISOString();
    const entry = (kind: string, amount: number, balanceAfter: number, when: string) =>
      exec(
        `INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, reason, period_start, created_at)
         VALUES (?, ?, ?, ?, ?, 'test', ?, ?)`,
        [user.userId, randomUUID(), kind, amount, balanceAfter, start, when],
      );
    const b0 = Number(wallet.balance);
    await entry('audio', -3, b0 - 3, at(1));
    await entry('capture_preparation', -2, b0 - 5, at(2));
    await entry('expiry', -1, b0 - 6, at(3));
    await entry('work', -4, b0 - 10, at(25));
    await exec(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [b0 - 10, user.userId]);
    const now = new Date(firstDayStart + 30 * 3_600_000);
    const body = await progressCredits(stack.context(), user.userId, 'UTC', now);
    expect(body.balance).toBe(b0 - 10);
    const firstDay = body.spentPerDay.find((d) => d.byKind.audio > 0)!;
    expect(firstDay.byKind).toEqual({ capture_preparation: 2, work: 0, audio: 3, page_translation: 0, sentence_translation: 0 });
    expect(body.spentPerDay.reduce((a, d) => a + Object.values(d.byKind).reduce((x, y) => x + y, 0), 0)).toBe(9);
    expect(body.balanceOverPeriod.at(-1)).toEqual({ date: body.today, balance: b0 - 10 });
    expect(body.balanceOverPeriod.map((d) => d.balance)).toContain(b0 - 6);
  });
});

describe('over HTTP', () => {
  it('never counts another learner’s reviews, cards or charges', async () => {
    const [me, them] = [await newUser(stack), await newUser(stack)];
    await seedReviews(them, [{ at: new Date().toISOString() }]);
    const timeZone = learnerZone();
    await insertCard(stack.orm, them.userId, { text: 'theirs', state: 'review', due: new Date() });
    const client = api(stack, { token: me.token });
    const reviews = bodyOf(await client.GET('/api/progress/reviews', { params: { query: { timeZone } } }), 200);
    expect(reviews.days.every((d) => d.again + d.hard + d.good + d.easy === 0)).toBe(true);
    const forecast = bodyOf(await client.GET('/api/progress/forecast', { params: { query: {} } }), 200);
    expect(forecast.dueNow).toBe(0);
    const library = bodyOf(await client.GET('/api/progress/library', { params: { query: { timeZone } } }), 200);
    expect(library.states).toEqual({ new: 0, learning: 0, review: 0, relearning: 0 });
    const credits = bodyOf(await client.GET('/api/progress/credits', { params: { query: { timeZone } } }), 200);
    expect(credits.spentPerDay.every((d) => Object.values(d.byKind).every((n) => n === 0))).toBe(true);
  });

  it('refuses a time zone that is not an IANA name, with its path', async () => {
    const client = api(stack, { token: (await newUser(stack)).token });
    for (const timeZone of ['UTC+3', '+03:00', 'Foo/Bar', 'x'.repeat(65)]) {
      const res = await client.GET('/api/progress/reviews', { params: { query: { timeZone } } });
      expectProblem(res, 400, 'invalid_request');
      expect(JSON.stringify(res.body)).toContain('timeZone');
    }
  });

  it('shows the desired retention’s effect from the default weights before a fit', async () => {
    const user = await newUser(stack);
    const body = bodyOf(await api(stack, { token: user.token }).GET('/api/progress/retention'), 200);
    expect(body.source).toBe('default');
    expect(body.points.map((p) => p.desiredRetention)).toEqual(Array.from({ length: 18 }, (_, i) => Math.round((0.8 + i * 0.01) * 100) / 100));
    expect(body.bestForTime).toBeLessThanOrEqual(0.83);
    expect(body.newPerDay).toBe(1);
    expect(body.optimiser).toMatchObject({ lastRun: null, longTermReviews: 0, reviewsNeeded: 300 });
    expect(body.recallCurve.find((p) => p.days === 8)).toMatchObject({ personal: null });
    expect(body.recallCurve.find((p) => p.days === 8)!.defaults).toBeCloseTo(0.796, 2);
  });

  it('shows the learner’s own weights, the fit’s sizes and the defaults’ log loss once a fit is applied', async () => {
    const user = await newUser(stack);
    const weights = [0.1, 0.6, 1.8, 6, 6.8, 0.6, 2.5, 0.01, 1.6, 0.2, 0.9, 1.6, 0.08, 0.3, 1.7, 0.5, 2, 0.6, 0.1, 0.07, 0.25];
    await exec(
      `INSERT INTO fsrs_parameters (user_id, version, weights, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, run_key,
         train_size, held_out_size, default_log_loss, default_rmse)
       VALUES (?, 1, ?::double precision[], 500, 0.31, 0.04, 0.35, 0.05, true, ?, 400, 100, 0.35, 0.05)`,
      [user.userId, `{${weights.join(',')}}`, `test-${user.userId}`],
    );
    const body = bodyOf(await api(stack, { token: user.token }).GET('/api/progress/retention'), 200);
    expect(body.source).toBe('personal');
    expect(body.optimiser).toMatchObject({ trainSize: 400, heldOutSize: 100, logLoss: 0.31, defaultLogLoss: 0.35, applied: true, longTermReviews: null });
    // R for a first "good" (S = w[2] = 1.8) under these weights: 0.757 at 7 days (/work/wt/designs/28.md §4), less at 8.
    const personal = body.recallCurve.find((p) => p.days === 8)!.personal!;
    expect(personal).toBeLessThan(0.757);
    expect(personal).toBeGreaterThan(0.73);
    const them = bodyOf(await api(stack, { token: (await newUser(stack)).token }).GET('/api/progress/retention'), 200);
    expect(them.source).toBe('default');
  });
});
