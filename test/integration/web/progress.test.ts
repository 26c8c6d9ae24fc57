import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { learnerZone } from '../../support/learner-clock.ts';
import { insertCard } from '../replay/cards.ts';
import { DESKTOP, openPage, openSection, PHONE, shoot, signUp, useBrowserStack, userIdOf } from './browser.ts';

// Issue 28: the Progress screen, as a learner with a year of history sees it, at both sizes.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

const DAY_MS = 86_400_000;
const RATINGS = ['again', 'hard', 'good', 'easy'] as const;

/** A learner's history: cards due over the coming weeks, a year of reviews (a gap, then a 12-day streak), charges. */
async function seedHistory(userId: string) {
  const em = () => stack.orm.em.fork();
  const now = Date.now();
  const cards: string[] = [];
  for (let i = 0; i < 24; i++) {
    cards.push(
      await insertCard(stack.orm, userId, {
        text: `expression ${i}`,
        state: i % 6 === 0 ? 'new' : i % 5 === 0 ? 'relearning' : 'review',
        due: new Date(now + (i % 12) * 2.5 * DAY_MS),
        createdAt: new Date(now - (i * 7 + 1) * DAY_MS),
      }),
    );
  }
  // A day's reviews span up to 13 minutes from an hour ago: never across the learner's day change (4 am in the
  // browser's zone), as the learner lives where now is mid-day, or in the day-change projects 03:59 or 04:00.
  const reviewsEnd = now - 3_600_000;
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const rows: unknown[][] = [];
  for (let day = 300; day >= 0; day--) {
    if (day > 11 && day < 14) continue; // the streak is the last 12 days
    if (day > 14 && random() < 0.35) continue;
    const n = 3 + Math.floor(random() * 12);
    for (let k = 0; k < n; k++) {
      const r = random();
      const rating = RATINGS[r < 0.12 ? 0 : r < 0.25 ? 1 : r < 0.85 ? 2 : 3];
      rows.push([
        cards[k % cards.length],
        userId,
        rating,
        Math.floor(random() * 60),
        new Date(reviewsEnd - day * DAY_MS - k * 60_000),
        4_000 + Math.floor(random() * 20_000),
      ]);
    }
  }
  const values = rows.map(() => `(?, ?, ?, 'review', now(), 1, 5, 0, 0, ?, 0, ?, false, false, 0, 3, ?)`).join(', ');
  await em().execute(
    `INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
       learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count, duration_ms) VALUES ${values}`,
    rows.flat(),
  );
  const [wallet] = await em().execute<[{ period_start: string; balance: number }]>(`SELECT period_start, balance FROM wallets WHERE user_id = ?`, [userId]);
  let balance = Number(wallet.balance);
  const kinds = ['capture_preparation', 'audio', 'work', 'sentence_translation', 'page_translation'];
  for (let i = 0; i < 10; i++) {
    const amount = 2 + (i % 4);
    balance -= amount;
    await em().execute(
      `INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, reason, period_start, created_at)
       VALUES (?, ?, ?, ?, ?, 'test', ?, ?)`,
      [
        userId,
        `seed-${i}`,
        kinds[i % kinds.length],
        -amount,
        balance,
        wallet.period_start,
        new Date(Math.max(new Date(wallet.period_start).getTime() + 60_000, now - ((9 - i) * DAY_MS) / 3)),
      ],
    );
  }
  await em().execute(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [balance, userId]);
  return { reviews: rows.length, balance };
}

const FIGURES = [
  'Reviews due in the next 30 days',
  'Reviews per day, by rating (30 days)',
  'Reviews over the year',
  'True retention by week',
  'Your expressions by state',
  'Expressions captured per week',
  'Minutes in Replay per day (30 days)',
  'Credits spent per day, by kind (30 days)',
  'Balance over this period',
  'Reviews a day at each desired retention',
  'Expressions remembered after a year',
  'Forecast recall after a first “good”',
];

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the Progress screen (%s)', (_size, viewport) => {
  it('shows each chart with its table, for a learner with a year of history', { timeout: 180_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport, { timezoneId: learnerZone() });
    page.setDefaultTimeout(60_000);
    await signUp(page);
    const { balance } = await seedHistory(await userIdOf(page));

    await openSection(page, 'Progress');
    await page.getByRole('heading', { name: 'Progress', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/progress$/);
    // At a glance: the streak (the last 12 days) and what is due.
    await page.getByText('12 days in a row').waitFor();
    for (const name of FIGURES) {
      const figure = page.getByRole('figure', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) });
      await figure.waitFor();
      await expect.poll(() => figure.getByRole('img').count(), { timeout: 30_000 }).toBe(1);
    }
    await page
      .getByText(`${balance.toLocaleString('en-US')} credits left`)
      .first()
      .waitFor();

    // A table alternative opens and shows the seeded numbers.
    const states = page.getByRole('figure', { name: /^Your expressions by state/ });
    await states.getByText('Show as table').click();
    const table = states.getByRole('table');
    await expect.poll(() => table.getByRole('row', { name: /^New 4$/ }).count()).toBe(1);
    await expect.poll(() => table.getByRole('row', { name: /^Relearning 4$/ }).count()).toBe(1);
    await expect.poll(() => table.getByRole('row', { name: /^Review 16$/ }).count()).toBe(1);
    const effect = page.getByRole('figure', { name: /^Reviews a day at each desired retention/ });
    await effect.getByText('Show as table').click();
    await effect.getByRole('row', { name: /^90 % \(yours\)/ }).waitFor();
    await page.getByText(/most expressions per minute of review comes at 8\d %/).waitFor();
    await shoot(page, 'progress');
    // The same in dark colours: axe checks every text's contrast again.
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'progress-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Beside the setting too.
    await openSection(page, 'Settings');
    await page.getByRole('figure', { name: /^Expressions remembered after a year/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
