/**
 * Part of the page-translation scenario (outside scenarios/, where every file is a scenario):
 * what several users reading overlapping pages of one site cost in provider calls and money.
 */
import { randomUUID } from 'node:crypto';
import { PAGE_TRANSLATION_LIMITS } from '../src/domain/limits.ts';
import type { BenchContext } from './support.ts';

const PAGES = 8;
const USERS = 6;
const PAGES_PER_USER = 4;
const ITEMS_PER_PAGE = PAGE_TRANSLATION_LIMITS.maxItems;
/** gpt-4o-mini's list price, USD per million tokens. */
const PRICES = { prompt: '0.15', completion: '0.6' };
const CHROME = [
  'Sign in',
  'Home',
  'Pricing',
  'Docs',
  'Blog',
  'Careers',
  'Contact us',
  'Privacy policy',
  'Terms of service',
  'Subscribe to our newsletter',
  'Search this site',
  'All rights reserved.',
];

const paragraph = (site: string, page: number, i: number) =>
  `${site}: on page ${page}, paragraph ${i} explains how the <b0>export</b0> feature keeps your {0} reports in sync across devices without manual steps.`;
const pageItems = (site: string, page: number) => [
  ...CHROME.map((text, i) => ({ id: `c${i}`, text: `${text} ${site}` })),
  ...Array.from({ length: ITEMS_PER_PAGE - CHROME.length }, (_, i) => ({ id: `p${i}`, text: paragraph(site, page, i) })),
];

export async function sharedSiteWorkload(ctx: BenchContext, run: string): Promise<void> {
  ctx.fake.reset();
  ctx.fake.setTokenPrices(PRICES);
  const users = await Promise.all(Array.from({ length: USERS }, () => ctx.createUser()));
  const site = `site-${run}`;

  const workload = await measureCalls(ctx, async (send) => {
    for (let round = 0; round < PAGES_PER_USER; round++) {
      for (const [u, user] of users.entries()) await send(user, pageItems(site, (u + round) % PAGES));
    }
  });

  // The floor: the same distinct texts under another site name, once each, 40 to a call, by one user.
  const floorSite = `floor-${run}`;
  const distinct = [
    ...new Map(
      Array.from({ length: PAGES }, (_, p) => pageItems(floorSite, p))
        .flat()
        .map((i) => [i.text, i]),
    ).values(),
  ];
  const floor = await measureCalls(ctx, async (send) => {
    for (let at = 0; at < distinct.length; at += ITEMS_PER_PAGE) {
      await send(
        users[0]!,
        distinct.slice(at, at + ITEMS_PER_PAGE).map((item, i) => ({ id: `d${i}`, text: item.text })),
      );
    }
  });
  ctx.fake.reset();

  const label = `${USERS} users × ${PAGES_PER_USER} pages of ${PAGES}`;
  ctx.report('page-transl', `${label}: provider calls (floor)`, `${workload.calls} (${floor.calls})`);
  ctx.report('page-transl', `${label}: provider cost USD (floor)`, `${workload.costUsd.toFixed(6)} (${floor.costUsd.toFixed(6)})`);
  ctx.report('page-transl', `${label}: cost / floor`, `${(workload.costUsd / floor.costUsd).toFixed(2)}×`);
  ctx.report('page-transl', `${label}: credits charged`, String(workload.credits));
}

type Send = (user: { token: string }, items: { id: string; text: string }[]) => Promise<void>;

async function measureCalls(ctx: BenchContext, body: (send: Send) => Promise<void>) {
  const batchCalls = () => ctx.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'translate_batch');
  const before = batchCalls().length;
  let credits = 0;
  await body(async (user, items) => {
    const res = await fetch(`${ctx.baseUrl}/api/immersive-translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ request_id: `site-${randomUUID()}`, target_language: 'fr', source_language: 'en', items }),
    });
    if (res.status !== 200) throw new Error(`page translation answered ${res.status}: ${await res.text()}`);
    credits += ((await res.json()) as { credits_charged: number }).credits_charged;
  });
  const calls = batchCalls().slice(before);
  return { calls: calls.length, costUsd: calls.reduce((sum, c) => sum + Number(c.costUsd ?? 0), 0), credits };
}
