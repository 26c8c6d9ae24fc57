/**
 * Runs the plan against the APIs through the careful client and keeps every acknowledgement:
 * the cardId of each capture, the id of each async sentence, the answer of each page
 * translation. Users are signed up first, each with a write token.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CarefulClient, type Outcome, type SendRequest } from './client.ts';
import type { LoadPlan, PlannedCapture, PlannedPageSend, PlannedSentence } from './plan.ts';

export interface LoadUser {
  userId: string;
  token: string;
}

export interface Acks {
  /** Text → the cardId of every 2xx answer for it (more than one distinct id would be a duplicate card). */
  captures: Map<string, { userId: string; cardIds: Set<string> }>;
  sentences: Map<string, { userId: string; sentenceId: string }>;
  pages: { userId: string; requestId: string; creditsCharged: number; replayed: boolean }[];
}

export interface Unanswered {
  kind: string;
  key: string;
  status: number | null;
  code: string | null;
  gaveUp: boolean;
  attempts: number;
}

/** The longest wait that one request needed, and what it was. */
export interface LongestWait {
  kind: string;
  ms: number;
  attempts: number;
}

const MAX_IN_FLIGHT = 48;

export class Load {
  readonly acks: Acks = { captures: new Map(), sentences: new Map(), pages: [] };
  readonly unanswered: Unanswered[] = [];
  readonly longest = new Map<string, LongestWait>();
  private readonly running = new Set<Promise<void>>();
  users: LoadUser[] = [];

  readonly client: CarefulClient;
  private readonly plan: LoadPlan;

  constructor(client: CarefulClient, plan: LoadPlan) {
    this.client = client;
    this.plan = plan;
  }

  async signUp(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const api = this.client.apis[i % this.client.apis.length]!;
      const email = `chaos-${randomUUID()}@example.test`;
      const ask = async (request: Omit<SendRequest, 'kind' | 'userId' | 'key'>) => {
        const outcome = await this.client.send({ kind: 'setup', userId: email, key: email, pinApi: i % this.client.apis.length, ...request });
        if (!outcome.ok) throw new Error(`user set-up failed: ${request.method} ${request.path} → ${outcome.status} ${JSON.stringify(outcome.body)}`);
        return outcome;
      };
      const signup = await ask({ method: 'POST', path: '/api/auth/signup', body: { email, password: 'chaos monkey passphrase' } });
      const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
      const session = { cookie, origin: api.baseUrl };
      await ask({ method: 'PUT', path: '/api/settings/language', headers: session, body: { targetLanguage: 'en', nativeLanguage: 'fr' } });
      const minted = await ask({ method: 'POST', path: '/api/tokens', headers: session, body: { name: 'chaos', scope: 'write' } });
      this.users.push({ userId: signup.body.userId, token: minted.body.token });
    }
  }

  /** Sends everything at its planned time; resolves when every request has its final answer. */
  async run(): Promise<void> {
    const start = Date.now();
    const items = [
      ...this.plan.captures.map((item) => ({ item, send: () => this.capture(item) })),
      ...this.plan.sentences.map((item) => ({ item, send: () => this.sentence(item) })),
      ...this.plan.pageSends.map((item) => ({ item, send: () => this.page(item) })),
    ].sort((a, b) => a.item.at - b.item.at);
    for (const { item, send } of items) {
      const wait = start + item.at - Date.now();
      if (wait > 0) await sleep(wait);
      if (item.started) continue; // sent early by a burst
      while (this.running.size >= MAX_IN_FLIGHT) await Promise.race(this.running);
      item.started = true;
      this.track(send());
    }
    while (this.running.size > 0) await Promise.race(this.running);
  }

  /** Sends `count` captures now, first to API `apiIndex`: the last ones planned, so none is left out when the load is nearly done. */
  burst(apiIndex: number, count: number): void {
    for (const item of this.plan.captures.filter((c) => !c.started).slice(-count)) {
      item.started = true;
      this.track(this.capture(item, apiIndex));
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch(() => {}).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private async capture(item: PlannedCapture, pinApi?: number): Promise<void> {
    const user = this.users[item.user]!;
    const outcome = await this.send({
      kind: 'capture',
      method: 'POST',
      path: '/api/library',
      userId: user.userId,
      key: item.text,
      headers: bearer(user),
      body: { text: item.text },
      ...(pinApi === undefined ? {} : { pinApi }),
    });
    if (!outcome.ok) return;
    const ack = this.acks.captures.get(item.text) ?? { userId: user.userId, cardIds: new Set<string>() };
    ack.cardIds.add(outcome.body.card.cardId);
    this.acks.captures.set(item.text, ack);
  }

  private async sentence(item: PlannedSentence): Promise<void> {
    const user = this.users[item.user]!;
    const outcome = await this.send({
      kind: 'sentence',
      method: 'POST',
      path: '/api/sentences?mode=async',
      userId: user.userId,
      key: item.text,
      headers: { ...bearer(user), 'x-service-async': '1' },
      body: { original_text: item.text },
    });
    if (outcome.ok) this.acks.sentences.set(item.text, { userId: user.userId, sentenceId: outcome.body.sentence.id });
    // A retry of a post whose answer was lost finds the sentence saved: that is its acknowledgement.
    else if (outcome.attempts > 1 && outcome.body?.code === 'duplicate_sentence' && outcome.body.existingId) {
      this.acks.sentences.set(item.text, { userId: user.userId, sentenceId: outcome.body.existingId });
    }
  }

  private async page(item: PlannedPageSend): Promise<void> {
    const user = this.users[item.user]!;
    const outcome = await this.send({
      kind: 'page',
      method: 'POST',
      path: '/api/immersive-translate',
      userId: user.userId,
      key: item.requestId,
      headers: bearer(user),
      body: { request_id: item.requestId, target_language: 'fr', source_language: 'en', items: item.items },
    });
    if (!outcome.ok) return;
    const replayed = outcome.headers.get('idempotent-replayed') === 'true';
    this.acks.pages.push({ userId: user.userId, requestId: item.requestId, creditsCharged: outcome.body.credits_charged, replayed });
  }

  private async send(request: SendRequest): Promise<Outcome> {
    const outcome = await this.client.send(request);
    const ms = outcome.at - outcome.sentAt;
    if (ms > (this.longest.get(request.kind)?.ms ?? -1)) this.longest.set(request.kind, { kind: request.kind, ms, attempts: outcome.attempts });
    if (!outcome.ok && !(request.kind === 'sentence' && outcome.body?.code === 'duplicate_sentence' && outcome.attempts > 1)) {
      this.unanswered.push({
        kind: request.kind,
        key: request.key,
        status: outcome.status,
        code: outcome.body?.code ?? null,
        gaveUp: outcome.gaveUp,
        attempts: outcome.attempts,
      });
    }
    return outcome;
  }
}

const bearer = (user: LoadUser) => ({ authorization: `Bearer ${user.token}` });
