// Capture box and library list: capture, prepared cards (polled until ready), search, refresh, delete.
import { busy, byId, formatDay, h } from './dom.js';
import { mutate, query } from './trpc.js';

const STATUS_LABEL = { pending: 'Preparing…', ready: 'Ready', failed: 'Preparation failed' };
const PAGE_SIZE = 20;
// Preparation usually takes seconds; after this long the page stops asking and says so.
const POLL_GIVE_UP_MS = 3 * 60 * 1000;

export function createLibrary(ctx) {
  const list = byId('card-list');
  const message = byId('library-message');
  const more = byId('library-more');
  const captureStatus = byId('capture-status');
  let listing = { query: '', nextCursor: null, loaded: false };
  const pollers = new Map();
  let generation = 0; // bumped on sign-out: late answers for the previous user are dropped

  function cardElement(card) {
    const e = card.enrichment;
    const title = e?.correctedText ?? card.text;
    const titleId = `card-title-${card.cardId}`;
    return h('li', { 'data-card-id': card.cardId },
      h('article', { class: 'card', 'aria-labelledby': titleId },
        h('div', { class: 'card-head' },
          h('h3', { id: titleId, lang: ctx.account?.targetLanguage ?? 'en' }, title),
          h('span', { class: `badge badge-${card.enrichmentStatus}` }, STATUS_LABEL[card.enrichmentStatus])),
        e && h('p', { class: 'translation', lang: ctx.account?.nativeLanguage ?? undefined }, e.translation),
        e?.correctedText && h('p', { class: 'correction' }, `You wrote “${card.text}”. `, e.correctionNote ?? ''),
        e && h('div', { class: 'usage' },
          h('p', {}, h('span', { class: 'register' }, e.usage.register), ' ', e.usage.guidance),
          e.usage.examples.length > 0 && h('ul', { class: 'examples', 'aria-label': 'Examples' }, e.usage.examples.map((x) => h('li', { lang: 'en' }, x)))),
        e && e.focuses.length > 0 && h('ul', { class: 'focuses', 'aria-label': 'Learning focuses' },
          e.focuses.map((f) => h('li', {}, h('strong', {}, f.kind), ' ', f.note))),
        card.enrichmentStatus === 'pending' && h('p', { class: 'muted' }, 'Translation and usage notes are on their way.'),
        card.enrichmentStatus === 'failed' && h('p', { class: 'error-text' }, card.enrichmentError?.message ?? 'The preparation could not be completed.'),
        h('div', { class: 'card-foot' },
          h('span', { class: 'muted' }, `Captured ${formatDay(card.createdAt)}`),
          h('span', { class: 'card-actions' },
            card.enrichmentStatus === 'failed' && h('button', { type: 'button', onclick: () => refresh(card), 'aria-label': `Try preparing “${card.text}” again` }, 'Try again'),
            h('button', { type: 'button', class: 'quiet danger', onclick: () => remove(card), 'aria-label': `Delete “${card.text}”` }, 'Delete')))));
  }

  /** Replaces the card where it is shown, or adds it at the top. */
  function upsert(card, { moveToTop = false } = {}) {
    const fresh = cardElement(card);
    const existing = list.querySelector(`[data-card-id="${card.cardId}"]`);
    if (existing && !moveToTop) existing.replaceWith(fresh);
    else {
      existing?.remove();
      list.prepend(fresh);
    }
    updateEmptyMessage();
    if (card.enrichmentStatus === 'pending') poll(card.cardId);
    return fresh;
  }

  function updateEmptyMessage() {
    if (list.children.length > 0) message.textContent = '';
    else message.textContent = listing.query ? `Nothing in your library matches “${listing.query}”.` : 'Your library is empty: capture your first expression above.';
  }

  /** Asks for the card with growing pauses until its preparation is over. */
  function poll(cardId) {
    if (pollers.has(cardId)) return;
    const mine = generation;
    const started = Date.now();
    let delay = 400;
    const tick = async () => {
      if (mine !== generation) return;
      try {
        const { card } = await query('library.get', { cardId });
        if (mine !== generation) return;
        if (card.enrichmentStatus !== 'pending') {
          pollers.delete(cardId);
          if (list.querySelector(`[data-card-id="${cardId}"]`)) upsert(card);
          announceCaptured(card);
          void ctx.refreshCredits();
          return;
        }
      } catch (error) {
        if (error.code === 'not_found') return void pollers.delete(cardId); // deleted meanwhile
        if (ctx.fail(error)) return void pollers.delete(cardId);
      }
      if (Date.now() - started > POLL_GIVE_UP_MS) {
        pollers.delete(cardId);
        captureStatus.textContent = 'Still preparing. It will be ready the next time you open your library.';
        return;
      }
      delay = Math.min(delay * 1.6, 5000);
      pollers.set(cardId, setTimeout(tick, delay));
    };
    pollers.set(cardId, setTimeout(tick, delay));
  }

  let lastCaptured = null;
  function announceCaptured(card) {
    if (card.cardId !== lastCaptured) return;
    captureStatus.dataset.tone = card.enrichmentStatus === 'failed' ? 'error' : 'ok';
    captureStatus.textContent = card.enrichmentStatus === 'ready'
      ? `“${card.text}” is ready: ${card.enrichment.translation}`
      : `“${card.text}” is saved, but its preparation failed: ${card.enrichmentError?.message ?? 'try again below.'}`;
  }

  async function load({ append = false } = {}) {
    const mine = generation;
    const input = { limit: PAGE_SIZE, ...(listing.query ? { query: listing.query } : {}), ...(append && listing.nextCursor ? { cursor: listing.nextCursor } : {}) };
    message.textContent = append ? '' : 'Loading your library…';
    try {
      const page = await query('library.list', input);
      if (mine !== generation) return;
      if (!append) list.replaceChildren();
      for (const card of page.items) {
        list.append(cardElement(card));
        if (card.enrichmentStatus === 'pending') poll(card.cardId);
      }
      listing = { ...listing, nextCursor: page.nextCursor, loaded: true };
      more.hidden = !page.nextCursor;
      updateEmptyMessage();
    } catch (error) {
      message.textContent = '';
      ctx.fail(error, message);
    }
  }

  async function refresh(card) {
    try {
      const { card: updated } = await mutate('library.refresh', { cardId: card.cardId, action: 'refresh_enrichment' });
      lastCaptured = updated.cardId;
      upsert(updated);
      captureStatus.dataset.tone = '';
      captureStatus.textContent = `Preparing “${updated.text}” again…`;
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function remove(card) {
    if (!window.confirm(`Delete “${card.text}” and its practice history?`)) return;
    try {
      await mutate('library.delete', { cardId: card.cardId });
      clearTimeout(pollers.get(card.cardId));
      pollers.delete(card.cardId);
      list.querySelector(`[data-card-id="${card.cardId}"]`)?.remove();
      updateEmptyMessage();
      ctx.notify(`Deleted “${card.text}”.`);
      byId('capture-text').focus();
    } catch (error) {
      ctx.fail(error);
    }
  }

  byId('capture-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const text = form.text.value.trim();
    captureStatus.dataset.tone = '';
    if (!text) {
      captureStatus.dataset.tone = 'error';
      captureStatus.textContent = 'Type or paste an English expression first.';
      return form.text.focus();
    }
    await busy(form, async () => {
      try {
        const { card, reused } = await mutate('library.capture', { text });
        lastCaptured = card.cardId;
        form.reset();
        upsert(card, { moveToTop: true });
        if (reused) {
          captureStatus.dataset.tone = 'ok';
          captureStatus.textContent = `“${card.text}” is already in your library.`;
        } else if (card.enrichmentStatus === 'pending') {
          captureStatus.textContent = `Saved “${card.text}”, preparing…`;
        } else announceCaptured(card);
      } catch (error) {
        captureStatus.dataset.tone = 'error';
        ctx.fail(error, captureStatus);
      }
    });
    form.text.focus();
  });

  byId('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    listing = { query: event.currentTarget.query.value.trim(), nextCursor: null, loaded: false };
    void load();
  });
  // Clearing the search box (Escape or the ✕ of type=search) shows everything again.
  byId('search-input').addEventListener('search', (event) => {
    if (event.currentTarget.value === '' && listing.query) {
      listing = { query: '', nextCursor: null, loaded: false };
      void load();
    }
  });
  more.addEventListener('click', () => load({ append: true }));

  return {
    show() { if (!listing.loaded) void load(); },
    reset() {
      generation += 1;
      for (const timer of pollers.values()) clearTimeout(timer);
      pollers.clear();
      listing = { query: '', nextCursor: null, loaded: false };
      list.replaceChildren();
      message.textContent = '';
      captureStatus.textContent = '';
      byId('search-input').value = '';
      more.hidden = true;
    },
  };
}
