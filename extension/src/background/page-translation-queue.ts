import { batchRequest, holdsFullBatch, takeBatch, type BatchLanguages } from '../shared/batching.ts';
import type { PageTranslationItem, PageTranslationPortMessage } from '../shared/messages.ts';
import { plainReason, retryAfterSeconds, serviceClient, sleep, unreachable, type RestClient } from '../shared/service.ts';

/** A part-filled batch waits this long for more blocks (read-frog's figure): fewer, fuller requests. */
const FLUSH_AFTER_MS = 100;
/** Batches of one page in flight at once. */
const CONCURRENT_BATCHES = 2;
/** Tries of one batch after network errors or a busy service, with backoff, before its blocks stay untranslated. */
const MAX_TRIES = 8;
const backoffMs = (tries: number) => Math.min(500 * 2 ** tries, 8_000);

/**
 * One page's translation, in the service worker (which owns the network): the content script
 * sends blocks as (key, text), in the order it wants them (near the viewport first); texts are
 * deduplicated, queued or in flight alike, and sent in batches within the service's limits, each
 * with a request_id derived from its content. A retried batch is the same request, so the
 * service charges it once. 429 and 409 (the same batch still running) are waited out; 401, 402,
 * 403 and 428 stop the page with a reason.
 */
export class PageTranslationQueue {
  private readonly queue: string[] = [];
  private readonly waiting = new Map<string, string[]>();
  private inFlight = 0;
  private due = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private session: Promise<{ api: RestClient; languages: BatchLanguages } | null> | null = null;

  private readonly post: (message: PageTranslationPortMessage) => void;

  constructor(post: (message: PageTranslationPortMessage) => void) {
    this.post = post;
  }

  add(items: readonly PageTranslationItem[]): void {
    if (this.stopped) return;
    for (const { key, text } of items) {
      const keys = this.waiting.get(text);
      if (keys) keys.push(key);
      else {
        this.waiting.set(text, [key]);
        this.queue.push(text);
      }
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.due = true;
      this.pump();
    }, FLUSH_AFTER_MS);
    this.pump();
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

  /** The client and the learner's languages, looked up once per page (GET /api/me). */
  private start(): Promise<{ api: RestClient; languages: BatchLanguages } | null> {
    this.session ??= (async () => {
      const { api, serviceUrl } = await serviceClient();
      try {
        const { data, response, error } = await api.GET('/api/me');
        if (!data) return this.stop(plainReason(response.status, error));
        if (!data.nativeLanguage) return this.stop(plainReason(428));
        return { api, languages: { source: 'auto', target: data.nativeLanguage } };
      } catch {
        return this.stop(unreachable(serviceUrl));
      }
    })();
    return this.session;
  }

  private async translate(batch: string[]): Promise<void> {
    const started = await this.start();
    if (!started) return;
    const body = await batchRequest(batch, started.languages);
    for (let tries = 1; !this.stopped; tries++) {
      let result;
      try {
        result = await started.api.POST('/api/immersive-translate', { body });
      } catch {
        // The answer was lost (or never came): the same request again, charged at most once.
        if (tries >= MAX_TRIES) return this.forget(batch);
        await sleep(backoffMs(tries));
        continue;
      }
      const { data, response, error } = result;
      if (data) {
        for (const item of data.items) this.deliver(batch[Number(item.id)]!, item.text);
        return;
      }
      if ([401, 402, 403, 428].includes(response.status)) {
        this.stop(plainReason(response.status, error));
        return;
      }
      if (![409, 429, 502, 503].includes(response.status) || tries >= MAX_TRIES) return this.forget(batch);
      const seconds = response.status === 429 ? retryAfterSeconds(response, 2) : backoffMs(tries) / 1000;
      if (response.status === 429) this.post({ type: 'waiting', seconds });
      await sleep(seconds * 1000);
    }
  }

  private deliver(text: string, translation: string): void {
    for (const key of this.waiting.get(text) ?? []) this.post({ type: 'translated', key, text: translation });
    this.waiting.delete(text);
  }

  /** Blocks left untranslated; a later pass (a mutation, a new page) may ask again. */
  private forget(batch: readonly string[]): void {
    for (const text of batch) this.waiting.delete(text);
  }

  private stop(reason: { message: string; openOptions?: boolean }): null {
    if (!this.stopped) this.post({ type: 'stopped', ...reason });
    this.close();
    return null;
  }
}
