import { batchRequest, holdsFullBatch, takeBatch, type BatchLanguages } from '../shared/batching.ts';
import type { PageTranslationItem, PageTranslationPortMessage, Trouble } from '../shared/messages.ts';
import { serviceAddressProblem } from '../shared/service-address.ts';
import { owner } from './known-expressions.ts';
import { outOfCredits, plainReason, serviceClient, sleep, unreachable, type Reason, type RestClient } from '../shared/service.ts';
import { retryAfterSeconds } from '../shared/retry-after.ts';

/** A part-filled batch waits this long for more blocks (read-frog's figure): fewer, fuller requests. */
const FLUSH_AFTER_MS = 100;
/** Batches of one page in flight at once. */
const CONCURRENT_BATCHES = 2;
/** Tries of one batch after network errors or a busy service (about 25 s of backoff), before its blocks wait for the learner's Retry. */
const MAX_TRIES = 6;
const backoffMs = (tries: number) => Math.min(1_000 * 2 ** (tries - 1), 8_000);

/** The learner's language is looked up once per this long (and per token), not once per page: the first paragraph comes sooner. */
const LANGUAGE_KEPT_MS = 10 * 60_000;
const LANGUAGE_KEY = 'translationLanguage';

/** The translation language looked up lately for this token, kept in session storage (memory, never disk). */
async function rememberedLanguage(): Promise<BatchLanguages['target'] | null> {
  const [who, stored] = await Promise.all([owner(), chrome.storage.session.get(LANGUAGE_KEY)]);
  const kept = stored[LANGUAGE_KEY] as { owner: string; tag: BatchLanguages['target']; at: number } | undefined;
  return kept?.owner === who && Date.now() - kept.at < LANGUAGE_KEPT_MS ? kept.tag : null;
}

async function rememberLanguage(tag: BatchLanguages['target']): Promise<void> {
  await chrome.storage.session.set({ [LANGUAGE_KEY]: { owner: await owner(), tag, at: Date.now() } });
}

/**
 * One page's translation, in the service worker (which owns the network): the content script
 * sends blocks as (key, text), the blocks in view marked `now` (sent at once, without waiting for
 * a fuller batch); texts are deduplicated, queued or in flight alike, and sent in batches within
 * the service's limits, each with a request_id derived from its content. A retried batch is the
 * same request, so the service charges it once. 5xx, network loss and 429 are retried with
 * backoff, and said once to the page as a `trouble` (and once more when it is over); retries that
 * run out hand the blocks back (`gave-up`) for the learner's Retry. 401, 402, 403 and 428 stop
 * the page with a reason and where to fix it.
 */
export class PageTranslationQueue {
  private readonly queue: string[] = [];
  /** Keys waiting for each text, queued or in flight. */
  private readonly waiting = new Map<string, Set<string>>();
  private inFlight = 0;
  private due = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private session: Promise<{ api: RestClient; languages: BatchLanguages } | null> | null = null;
  /** The trouble of each batch now being retried; the page is told when the first begins and the last ends. */
  private readonly troubled = new Map<object, Trouble>();
  private said: Trouble | null = null;

  private readonly post: (message: PageTranslationPortMessage) => void;

  constructor(post: (message: PageTranslationPortMessage) => void) {
    this.post = post;
  }

  add(items: readonly PageTranslationItem[], now = false): void {
    if (this.stopped) return;
    for (const { key, text } of items) {
      const keys = this.waiting.get(text);
      if (keys) keys.add(key);
      else {
        this.waiting.set(text, new Set([key]));
        this.queue.push(text);
      }
    }
    clearTimeout(this.timer);
    if (now) this.due = true;
    else
      this.timer = setTimeout(() => {
        this.due = true;
        this.pump();
      }, FLUSH_AFTER_MS);
    this.pump();
  }

  /** Blocks gone from the page: a text no block waits for any more is not sent (if it is not on its way already). */
  cancel(keys: readonly string[]): void {
    const gone = new Set(keys);
    for (const [text, waiting] of this.waiting) {
      for (const key of waiting) if (gone.has(key)) waiting.delete(key);
      if (waiting.size > 0) continue;
      const queued = this.queue.indexOf(text);
      if (queued !== -1) {
        this.queue.splice(queued, 1);
        this.waiting.delete(text);
      }
    }
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private pump(): void {
    while (!this.stopped && this.inFlight < CONCURRENT_BATCHES && this.queue.length > 0 && (this.due || holdsFullBatch(this.queue))) {
      const { batch, tooLong } = takeBatch(this.queue);
      if (tooLong !== null) {
        this.queue.shift();
        this.waiting.delete(tooLong);
        continue;
      }
      this.queue.splice(0, batch.length);
      this.inFlight++;
      void this.translate(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    if (this.queue.length === 0) this.due = false;
  }

  /**
   * The client and the learner's languages (GET /api/me, at most once per LANGUAGE_KEPT_MS and
   * token). A service that cannot be reached rejects, and is looked up again on the next try.
   */
  private start(): Promise<{ api: RestClient; languages: BatchLanguages } | null> {
    this.session ??= (async () => {
      const { api, serviceUrl } = await serviceClient();
      // An address the token must not travel to is for the options, not for retries.
      if (serviceAddressProblem(serviceUrl)) return this.stop(unreachable(serviceUrl));
      const known = await rememberedLanguage();
      if (known) {
        this.post({ type: 'language', tag: known });
        return { api, languages: { source: 'auto', target: known } };
      }
      let answer;
      try {
        answer = await api.GET('/api/me');
      } catch (error) {
        this.session = null;
        throw error;
      }
      const { data, response, error } = answer;
      if (!data) return this.stop(response.status === 402 ? await outOfCredits(api) : plainReason(response.status, error));
      if (!data.nativeLanguage) return this.stop(plainReason(428));
      await rememberLanguage(data.nativeLanguage);
      this.post({ type: 'language', tag: data.nativeLanguage });
      return { api, languages: { source: 'auto', target: data.nativeLanguage } };
    })();
    return this.session;
  }

  private async translate(batch: string[]): Promise<void> {
    const token = {};
    try {
      for (let tries = 1; !this.stopped; tries++) {
        let result, started;
        try {
          started = await this.start();
          if (!started) return;
          result = await started.api.POST('/api/immersive-translate', { body: await batchRequest(batch, started.languages) });
        } catch {
          // The answer was lost (or never came): the same request again, charged at most once.
          if (tries >= MAX_TRIES) return this.giveUp(batch, 'unreachable');
          this.trouble(token, 'unreachable', backoffMs(tries) / 1000);
          await sleep(backoffMs(tries));
          continue;
        }
        const { data, response, error } = result;
        if (data) {
          this.troubled.delete(token);
          for (const item of data.items) this.deliver(batch[Number(item.id)]!, item.text);
          return;
        }
        if (response.status === 402) {
          this.stop(await outOfCredits(started.api));
          return;
        }
        if ([401, 403, 428].includes(response.status)) {
          this.stop(plainReason(response.status, error));
          return;
        }
        if (![409, 429, 500, 502, 503, 504].includes(response.status)) return this.giveUp(batch, 'unavailable');
        const trouble: Trouble = response.status === 429 ? 'rate-limited' : 'unavailable';
        if (tries >= MAX_TRIES) return this.giveUp(batch, trouble);
        const seconds = response.status === 429 ? retryAfterSeconds(response, 2) : backoffMs(tries) / 1000;
        if (response.status !== 409) this.trouble(token, trouble, seconds);
        await sleep(seconds * 1000);
      }
    } finally {
      this.troubled.delete(token);
      this.sayTrouble();
    }
  }

  private trouble(batch: object, trouble: Trouble, retryInSeconds: number): void {
    this.troubled.set(batch, trouble);
    this.sayTrouble(retryInSeconds);
  }

  /** Tells the page when trouble begins, changes kind, or ends: never per batch or per try. */
  private sayTrouble(retryInSeconds?: number): void {
    const now = [...this.troubled.values()].at(-1) ?? null;
    if (now === this.said || this.stopped) return;
    this.said = now;
    this.post({ type: 'trouble', trouble: now, ...(now && retryInSeconds !== undefined ? { retryInSeconds } : {}) });
  }

  private deliver(text: string, translation: string): void {
    for (const key of this.waiting.get(text) ?? []) this.post({ type: 'translated', key, text: translation });
    this.waiting.delete(text);
  }

  /** Retries ran out: the blocks go back to the page, which offers the learner a Retry. */
  private giveUp(batch: readonly string[], trouble: Trouble): void {
    const keys = batch.flatMap((text) => [...(this.waiting.get(text) ?? [])]);
    for (const text of batch) this.waiting.delete(text);
    if (keys.length > 0 && !this.stopped) this.post({ type: 'gave-up', keys, trouble });
  }

  private stop(reason: Reason): null {
    if (!this.stopped) this.post({ type: 'stopped', ...reason });
    this.close();
    return null;
  }
}
