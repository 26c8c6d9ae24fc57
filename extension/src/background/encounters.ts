import { ENCOUNTER_BATCH_MAX } from '../../../src/domain/limits.ts';
import { loadSettings } from '../shared/settings.ts';
import { owner } from './known-expressions.ts';
import { serviceClient, sleep, type RestClient } from '../shared/service.ts';
import { retryAfterSeconds } from '../shared/retry-after.ts';

/** A page view's underlines come in as its translations arrive: its batch waits for this long a quiet. */
const QUIET_MS = 3_000;
/** …but no longer than this after its first card (the worker may nap after 30 s without events). */
const LONGEST_WAIT_MS = 15_000;
/** Tries of one batch (network, 5xx, a short 429, cards deleted meanwhile), then it is dropped: counting is best effort. */
const MAX_TRIES = 3;
/** A 429 asking to wait longer than this (the daily limit: until the next UTC day) pauses counting instead of waiting. */
const LONGEST_RETRY_WAIT_S = 10;
/** Cards one page view may report: more than any library's underlines on one page, fewer than a runaway. */
const CARDS_PER_VIEW_MAX = 2_000;
/** A card is counted at most once per this long from the same tab: a page reloading itself cannot inflate its counts. */
const ONCE_PER_TAB_MS = 10 * 60_000;
/** When each tab last reported each card (session storage, so a worker restart keeps it). */
const REPORTED_KEY = 'encountersReportedByTab';
const PAUSED_KEY = 'encountersPausedUntil';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface View {
  /** Every card this page view has reported or will: at most once per card per page view. */
  seen: Set<string>;
  pending: { cardId: string; metAt: string }[];
  timer?: ReturnType<typeof setTimeout>;
  firstPendingAt: number;
  lastAt: number;
}
/** A page view not heard from for this long is forgotten (the service still counts each card once per page view). */
const VIEW_KEPT_MS = 60 * 60_000;

/**
 * "Count when I meet my expressions" (off unless the learner turns it on): the cards whose
 * expressions were underlined on a page, reported to POST /api/encounters as card ids and times,
 * never the page's text or address. One batch per page view (a page view is a random id the
 * content script makes at load: a reload is a new one), sent after its underlines settle, split
 * only past ENCOUNTER_BATCH_MAX cards; each card at most once per page view (the service also
 * counts a retried batch once). A 429 is waited out when short, otherwise counting pauses until
 * its Retry-After; a 404 names cards deleted meanwhile, which are dropped and the rest sent once
 * more; every batch has MAX_TRIES, then it is dropped. Across page views, a card is reported at
 * most once per ONCE_PER_TAB_MS from the same tab (a reload is a new page view, but not a new
 * encounter): the time is kept when the card is queued, so a batch dropped later still counts as
 * reported, which errs towards counting less.
 */
export class EncounterReporter {
  private readonly views = new Map<string, View>();
  /** Tab id → card id → when that tab last reported it; read from session storage once per worker life. */
  private reported: Promise<Map<number, Map<string, number>>> | null = null;

  async met(tabId: number, pageViewId: string, cardIds: readonly string[]): Promise<void> {
    if (!UUID.test(pageViewId)) return;
    const byTab = await this.reportedByTab();
    const now = Date.now();
    for (const [tab, cards] of byTab) {
      for (const [cardId, at] of cards) if (now - at >= ONCE_PER_TAB_MS) cards.delete(cardId);
      if (cards.size === 0) byTab.delete(tab);
    }
    let tab = byTab.get(tabId);
    if (!tab) byTab.set(tabId, (tab = new Map<string, number>()));
    const lately = tab;
    const fresh = cardIds.filter((cardId) => UUID.test(cardId) && !lately.has(cardId));
    this.queue(pageViewId, fresh, (cardId) => lately.set(cardId, now));
    if (tab.size === 0) byTab.delete(tabId);
    void chrome.storage.session.set({ [REPORTED_KEY]: Object.fromEntries([...byTab].map(([id, cards]) => [id, Object.fromEntries(cards)])) });
  }

  private reportedByTab(): Promise<Map<number, Map<string, number>>> {
    this.reported ??= chrome.storage.session.get(REPORTED_KEY).then((stored) => {
      const kept = (stored[REPORTED_KEY] ?? {}) as Record<string, Record<string, number>>;
      return new Map(Object.entries(kept).map(([tab, cards]) => [Number(tab), new Map(Object.entries(cards))]));
    });
    return this.reported;
  }

  /** Queues the cards this page view has not reported yet; `queued` hears of each one queued. */
  private queue(pageViewId: string, cardIds: readonly string[], queued: (cardId: string) => void): void {
    for (const [id, old] of this.views) if (Date.now() - old.lastAt > VIEW_KEPT_MS && old.pending.length === 0) this.views.delete(id);
    let view = this.views.get(pageViewId);
    if (!view) this.views.set(pageViewId, (view = { seen: new Set(), pending: [], firstPendingAt: 0, lastAt: 0 }));
    view.lastAt = Date.now();
    const metAt = new Date().toISOString();
    for (const cardId of cardIds) {
      if (!UUID.test(cardId) || view.seen.has(cardId) || view.seen.size >= CARDS_PER_VIEW_MAX) continue;
      view.seen.add(cardId);
      view.pending.push({ cardId, metAt });
      queued(cardId);
    }
    if (view.pending.length === 0) return;
    view.firstPendingAt ||= Date.now();
    clearTimeout(view.timer);
    const wait = Math.min(QUIET_MS, view.firstPendingAt + LONGEST_WAIT_MS - Date.now());
    view.timer = setTimeout(() => void this.flush(pageViewId, view), Math.max(0, wait));
  }

  private async flush(pageViewId: string, view: View): Promise<void> {
    const encounters = view.pending.splice(0);
    view.firstPendingAt = 0;
    const [{ countEncounters }, paused] = await Promise.all([loadSettings(), pausedUntil()]);
    // Turned off meanwhile, or the service asked to wait: these are dropped, not kept for later.
    if (!countEncounters || Date.now() < paused) return;
    const { api } = await serviceClient();
    for (let at = 0; at < encounters.length; at += ENCOUNTER_BATCH_MAX) await send(api, pageViewId, encounters.slice(at, at + ENCOUNTER_BATCH_MAX));
  }
}

async function send(api: RestClient, pageViewId: string, batch: { cardId: string; metAt: string }[]): Promise<void> {
  for (let tries = 1; batch.length > 0 && tries <= MAX_TRIES; tries++) {
    if (Date.now() < (await pausedUntil())) return;
    let result;
    try {
      result = await api.POST('/api/encounters', { body: { pageViewId, encounters: batch } });
    } catch {
      await sleep(1_000 * tries);
      continue;
    }
    const { response, error } = result;
    if (response.ok) return;
    if (response.status === 404) {
      // Cards deleted since the page got its list: dropped, the rest sent once more.
      const unknown = new Set(unknownCardIds(error));
      if (unknown.size === 0) return;
      batch = batch.filter((e) => !unknown.has(e.cardId));
      continue;
    }
    if (response.status === 429) {
      // Uncapped: the daily limit asks to wait until the next UTC day, and counting pauses that long.
      const seconds = retryAfterSeconds(response, 60, Number.POSITIVE_INFINITY);
      if (seconds > LONGEST_RETRY_WAIT_S) return pause(seconds);
      await sleep(seconds * 1000);
      continue;
    }
    if (response.status >= 500) {
      await sleep(1_000 * tries);
      continue;
    }
    return; // 400, 401, 403, 428: nothing a retry would change
  }
}

function unknownCardIds(problem: unknown): string[] {
  const ids = (problem as { unknownCardIds?: unknown } | undefined)?.unknownCardIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Until when counting waits for this token's account (session storage: memory that outlives the worker's naps). */
async function pausedUntil(): Promise<number> {
  const [who, stored] = await Promise.all([owner(), chrome.storage.session.get(PAUSED_KEY)]);
  const kept = stored[PAUSED_KEY] as { owner: string; until: number } | undefined;
  return kept?.owner === who ? kept.until : 0;
}

async function pause(seconds: number): Promise<void> {
  await chrome.storage.session.set({ [PAUSED_KEY]: { owner: await owner(), until: Date.now() + seconds * 1000 } });
}
