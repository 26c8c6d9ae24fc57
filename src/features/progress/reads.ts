import { default_w } from 'ts-fsrs';
import type { Em } from '../../db/orm.ts';
import { allRows, firstRow, sql, type Sql } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { memoryModel, retentionWorkload, type RetentionWorkload } from '../../domain/workload-simulation.ts';
import type { FeatureContext } from '../context.ts';
import { getWallet } from '../credits/wallet.ts';
import { learnerScheduling } from '../replay/learner-scheduling.ts';
import { MIN_LONG_TERM_REVIEWS } from '../replay/optimisation-rules.ts';
import { optimisationStatus } from '../replay/optimiser.ts';
import { addDays, currentStreak, daysFrom, fillDays, trueRetention, weekOf, weeklyRetention, type Day } from './progress-rules.ts';
import { CREDIT_KINDS } from './schemas.ts';

/**
 * The Progress screen's reads, one per chart group, each aggregating in the database. Days are the
 * learner's: in the time zone the page sends, starting at 4 am (as Anki's do). The SQL says which
 * day an instant falls on and which day is today; TypeScript only fills the days without rows.
 */

let knownZones: Promise<Set<string>> | null = null;

/** PostgreSQL's time zone names, read once per process (the view costs ~20 ms a query). */
async function checkTimeZone(em: Em, timeZone: string): Promise<void> {
  knownZones ??= allRows<{ name: string }>(em, sql`SELECT name FROM pg_timezone_names`).then(
    (rows) => new Set(rows.map((r) => r.name)),
    (error: unknown) => {
      knownZones = null;
      throw error;
    },
  );
  if (!(await knownZones).has(timeZone)) {
    throw new AppError('invalid_request', `Unknown time zone "${timeZone.slice(0, 64)}".`, {
      errors: [{ path: 'timeZone', message: 'an IANA time zone name, such as Europe/Paris' }],
    });
  }
}

/** The learner day an instant falls on: from 4 am, in `tz`. */
const learnerDay = (at: Sql, tz: string) => sql`(((${at}) AT TIME ZONE ${tz}::text) - interval '4 hours')::date`;
/** The instant a learner day starts (4 am local; on a DST day, the wall clock's 4 am). */
const dayStart = (day: Sql, tz: string) => sql`(((${day}) + time '04:00') AT TIME ZONE ${tz}::text)`;
/**
 * The learner's today and the instants a window of days starts and ends, as a one-row CTE
 * `b(today, from_at, to_at)`: computed once, so a scan compares with values, not expressions.
 */
const windowCte = (tz: string, now: Date, fromDay: Sql, toDay: Sql) =>
  sql`b AS MATERIALIZED (SELECT t.today, ${dayStart(fromDay, tz)} AS from_at, ${dayStart(toDay, tz)} AS to_at
        FROM (SELECT ${learnerDay(sql`${now}::timestamptz`, tz)} AS today) t)`;

const DAYS_SHOWN = 365;
const WEEKS_SHOWN = 26;
const FORECAST_DAYS = 30;
const CREDIT_DAYS = 30;

export async function progressForecast(ctx: FeatureContext, userId: string, tz: string, now = new Date()) {
  await checkTimeZone(ctx.em, tz);
  const rows = await allRows<{ today: string; date: string | null; due: number | null; due_now: number | null }>(
    ctx.em,
    sql`WITH ${windowCte(tz, now, sql`t.today`, sql`t.today + ${FORECAST_DAYS}::int`)}
     SELECT b.today::text AS today, d.* FROM b LEFT JOIN LATERAL (
       SELECT greatest(${learnerDay(sql`s.due`, tz)}, b.today)::text AS date, count(*)::int AS due, count(*) FILTER (WHERE s.due <= ${now})::int AS due_now
       FROM card_schedules s WHERE s.user_id = ${userId} AND s.state <> 'new' AND s.due < b.to_at
         AND NOT EXISTS (SELECT 1 FROM cards c WHERE c.user_id = ${userId} AND c.id = s.card_id AND c.enrichment_status <> 'ready')
       GROUP BY 1) d ON true`,
  );
  const today = rows[0]!.today;
  const perDay = rows.filter((r) => r.date !== null).map((r) => ({ date: r.date!, due: r.due! }));
  return {
    today,
    dueNow: rows.reduce((n, r) => n + (r.due_now ?? 0), 0),
    days: fillDays(daysFrom(today, FORECAST_DAYS), perDay, (date) => ({ date, due: 0 })),
  };
}

interface DayRow {
  today: string;
  date: string | null;
  again: number;
  hard: number;
  good: number;
  easy: number;
  duration_ms: string;
  timed: number;
  young_passed: number;
  young_failed: number;
  mature_passed: number;
  mature_failed: number;
}

export async function progressReviews(ctx: FeatureContext, userId: string, tz: string, now = new Date()) {
  await checkTimeZone(ctx.em, tz);
  const rows = await allRows<DayRow>(
    ctx.em,
    sql`WITH ${windowCte(tz, now, sql`t.today - ${DAYS_SHOWN - 1}::int`, sql`t.today + 1`)}
     SELECT b.today::text AS today, d.* FROM b LEFT JOIN LATERAL (
       SELECT ${learnerDay(sql`quarter`, tz)}::text AS date, sum(again)::int AS again, sum(hard)::int AS hard, sum(good)::int AS good,
              sum(easy)::int AS easy, sum(duration_ms)::bigint AS duration_ms, sum(timed)::int AS timed,
              sum(young_passed)::int AS young_passed, sum(young_failed)::int AS young_failed,
              sum(mature_passed)::int AS mature_passed, sum(mature_failed)::int AS mature_failed
       FROM review_quarters WHERE user_id = ${userId}
         AND quarter >= b.from_at AND quarter < b.to_at
       GROUP BY 1 HAVING sum(reviews) > 0) d ON true`,
  );
  const today = rows[0]!.today;
  const active = rows
    .filter((r) => r.date !== null)
    .map((r) => ({
      date: r.date!,
      again: r.again,
      hard: r.hard,
      good: r.good,
      easy: r.easy,
      durationMs: Number(r.duration_ms),
      timedReviews: r.timed,
      youngPassed: r.young_passed,
      youngFailed: r.young_failed,
      maturePassed: r.mature_passed,
      matureFailed: r.mature_failed,
    }));
  const empty = (date: Day) => ({
    date,
    again: 0,
    hard: 0,
    good: 0,
    easy: 0,
    durationMs: 0,
    timedReviews: 0,
    youngPassed: 0,
    youngFailed: 0,
    maturePassed: 0,
    matureFailed: 0,
  });
  const days = fillDays(daysFrom(addDays(today, -(DAYS_SHOWN - 1)), DAYS_SHOWN), active, empty);
  let streak = currentStreak(new Set(active.map((d) => d.date)), today);
  // A streak as long as the window goes on before it: count it over the whole history.
  if (streak >= DAYS_SHOWN - 1) streak = currentStreak(await allActiveDays(ctx.em, userId, tz), today);
  const since = (n: number) => days.slice(-n);
  const firstWeek = addDays(weekOf(today), -7 * (WEEKS_SHOWN - 1));
  return {
    today,
    streak,
    days: days.map(({ date, again, hard, good, easy, durationMs, timedReviews }) => ({ date, again, hard, good, easy, durationMs, timedReviews })),
    retention: { last7Days: trueRetention(since(7)), last30Days: trueRetention(since(30)), lastYear: trueRetention(days) },
    weeklyRetention: weeklyRetention(days.filter((d) => d.date >= firstWeek)),
  };
}

async function allActiveDays(em: Em, userId: string, tz: string): Promise<Set<Day>> {
  const rows = await allRows<{ date: string }>(
    em,
    sql`SELECT DISTINCT ${learnerDay(sql`quarter`, tz)}::text AS date FROM review_quarters WHERE user_id = ${userId} AND reviews > 0`,
  );
  return new Set(rows.map((r) => r.date));
}

export async function progressLibrary(ctx: FeatureContext, userId: string, tz: string, now = new Date()) {
  await checkTimeZone(ctx.em, tz);
  const states = await allRows<{ state: 'new' | 'learning' | 'review' | 'relearning'; n: number }>(
    ctx.em,
    sql`SELECT state, count(*)::int AS n FROM card_schedules WHERE user_id = ${userId} GROUP BY state`,
  );
  const weeks = await allRows<{ today: string; week: string | null; captured: number | null }>(
    ctx.em,
    sql`WITH ${windowCte(tz, now, sql`t.today - ((extract(isodow FROM t.today)::int - 1) + 7 * ${WEEKS_SHOWN - 1}::int)`, sql`t.today + 1`)}
     SELECT b.today::text AS today, d.week, d.captured FROM b LEFT JOIN LATERAL (
       SELECT date_trunc('week', ${learnerDay(sql`created_at`, tz)}::timestamp)::date::text AS week, count(*)::int AS captured
       FROM cards WHERE user_id = ${userId} AND created_at >= b.from_at GROUP BY 1) d ON true`,
  );
  const today = weeks[0]!.today;
  const counts = Object.fromEntries(states.map((s) => [s.state, s.n]));
  const perWeek = weeks.filter((w) => w.week !== null).map((w) => ({ date: w.week!, captured: w.captured! }));
  const mondays = Array.from({ length: WEEKS_SHOWN }, (_, i) => addDays(weekOf(today), -7 * (WEEKS_SHOWN - 1 - i)));
  return {
    today,
    states: { new: counts.new ?? 0, learning: counts.learning ?? 0, review: counts.review ?? 0, relearning: counts.relearning ?? 0 },
    capturesPerWeek: fillDays(mondays, perWeek, (date) => ({ date, captured: 0 })).map(({ date, captured }) => ({ week: date, captured })),
  };
}

type CreditKind = (typeof CREDIT_KINDS)[number];

export async function progressCredits(ctx: FeatureContext, userId: string, tz: string, now = new Date()) {
  await checkTimeZone(ctx.em, tz);
  // The wallet as the Credits page shows it (rolled into the current period if one has ended).
  const wallet = await getWallet(ctx, userId, now);
  const spent = await allRows<{ today: string; date: string | null; kind: CreditKind | null; spent: number | null }>(
    ctx.em,
    sql`WITH ${windowCte(tz, now, sql`t.today - ${CREDIT_DAYS - 1}::int`, sql`t.today + 1`)}
     SELECT b.today::text AS today, d.* FROM b LEFT JOIN LATERAL (
       SELECT ${learnerDay(sql`created_at`, tz)}::text AS date, kind, sum(-amount)::int AS spent
       FROM ledger_entries WHERE user_id = ${userId} AND amount < 0 AND kind = ANY(${[...CREDIT_KINDS]}::text[])
         AND created_at >= b.from_at
       GROUP BY 1, 2) d ON true`,
  );
  const balances = await allRows<{ date: string; balance: number; first_day: string }>(
    ctx.em,
    sql`SELECT DISTINCT ON (1) ${learnerDay(sql`created_at`, tz)}::text AS date, balance_after AS balance,
            ${learnerDay(sql`${new Date(wallet.periodStart)}::timestamptz`, tz)}::text AS first_day
     FROM ledger_entries WHERE user_id = ${userId} AND created_at >= ${new Date(wallet.periodStart)}
     ORDER BY 1, id DESC`,
  );
  const today = spent[0]!.today;
  const zero = Object.fromEntries(CREDIT_KINDS.map((k) => [k, 0])) as Record<CreditKind, number>;
  const byDay = new Map<Day, Record<CreditKind, number>>();
  for (const row of spent) if (row.date && row.kind) byDay.set(row.date, { ...(byDay.get(row.date) ?? zero), [row.kind]: row.spent! });
  const spentPerDay = daysFrom(addDays(today, -(CREDIT_DAYS - 1)), CREDIT_DAYS).map((date) => ({ date, byKind: byDay.get(date) ?? zero }));
  return {
    today,
    periodStart: wallet.periodStart,
    periodEnd: wallet.periodEnd,
    balance: wallet.balance,
    spentPerDay,
    balanceOverPeriod: carryBalance(balances, today),
  };
}

/** The balance at the end of each day from the period's first entry to today, carried over days without entries. */
function carryBalance(rows: ReadonlyArray<{ date: Day; balance: number }>, today: Day): Array<{ date: Day; balance: number }> {
  if (rows.length === 0) return [];
  const byDay = new Map(rows.map((r) => [r.date, r.balance]));
  const out: Array<{ date: Day; balance: number }> = [];
  let balance = rows[0]!.balance;
  for (let day = rows[0]!.date; day <= today; day = addDays(day, 1)) {
    balance = byDay.get(day) ?? balance;
    out.push({ date: day, balance });
  }
  return out;
}

/** Days after a first "good" the recall curve is drawn at: evenly spaced, so the chart's x axis is true to time. */
const CURVE_DAYS = Array.from({ length: 31 }, (_, i) => i * 2);

/** Workload curves by weights, computed once per process (~0.5 s each, so never per request). */
const curves = new Map<string, RetentionWorkload>();
function workloadOf(weights: readonly number[]): RetentionWorkload {
  const key = weights.join(',');
  let curve = curves.get(key);
  if (!curve) {
    curve = retentionWorkload(weights);
    if (curves.size >= 64) curves.delete(curves.keys().next().value!);
    curves.set(key, curve);
  }
  return curve;
}

/** Desired retention by its effect, and the personal optimiser made visible. */
export async function retentionChoice(ctx: FeatureContext, userId: string, now = new Date()) {
  const { em } = ctx;
  const scheduling = await learnerScheduling(em, userId);
  const personal = scheduling.weights?.length === 21 ? scheduling.weights : null;
  const latest = await firstRow<{
    created_at: Date;
    applied: boolean;
    train_size: number | null;
    held_out_size: number | null;
    log_loss: number;
    default_log_loss: number | null;
  }>(
    em,
    sql`SELECT created_at, applied, train_size, held_out_size, log_loss, default_log_loss FROM fsrs_parameters
     WHERE user_id = ${userId} ORDER BY version DESC LIMIT 1`,
  );
  const captured = await firstRow<{ n: number }>(
    em,
    sql`SELECT count(*)::int AS n FROM cards WHERE user_id = ${userId} AND created_at >= ${now}::timestamptz - interval '28 days'`,
  );
  const newPerDay = Math.max(1, (captured?.n ?? 0) / 28);
  // Before a fit, the count towards one; after, the fit says it (and the count costs a pass over the log).
  const status = latest ? null : await optimisationStatus(ctx, userId);
  const curve = workloadOf(personal ?? default_w);
  const mine = personal ? memoryModel(personal) : null;
  const defaults = memoryModel(default_w);
  return {
    desiredRetention: scheduling.desiredRetention,
    source: personal ? ('personal' as const) : ('default' as const),
    newPerDay,
    points: curve.points.map((p) => ({
      desiredRetention: p.desiredRetention,
      reviewsPerDay: p.reviewsPerDay * newPerDay,
      minutesPerDay: p.minutesPerDay * newPerDay,
      rememberedAfterYear: p.rememberedAfterYear * newPerDay,
      rememberedPerMinute: p.rememberedPerMinute,
    })),
    bestForTime: curve.bestForTime,
    bestIsLowest: curve.bestIsLowest,
    optimiser: {
      longTermReviews: status?.longTermReviews ?? null,
      reviewsNeeded: MIN_LONG_TERM_REVIEWS,
      lastRun: latest ? new Date(latest.created_at).toISOString() : null,
      applied: latest?.applied ?? null,
      trainSize: latest?.train_size ?? null,
      heldOutSize: latest?.held_out_size ?? null,
      logLoss: latest?.log_loss ?? null,
      defaultLogLoss: latest?.default_log_loss ?? null,
    },
    recallCurve: CURVE_DAYS.map((days) => ({
      days,
      personal: mine ? mine.recall(days, personal![2]!) : null,
      defaults: defaults.recall(days, default_w[2]!),
    })),
  };
}
