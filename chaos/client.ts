/**
 * The load's HTTP client, behaving as a careful real client does: it spreads requests over both
 * API processes; on a connection error, a 503 or a 429 it sends the very same request again
 * (same body, same request_id), to the other API after a connection error, waiting as long as
 * Retry-After says or backing off; a 409 `request_in_progress` is retried shortly, as the API
 * asks. Every answer is recorded, for the report's 5xx figures and recovery times.
 */
import { setTimeout as sleep } from 'node:timers/promises';

type RequestKind = 'setup' | 'capture' | 'page' | 'sentence';

export interface AnswerRecord {
  kind: RequestKind;
  api: string;
  sentAt: number;
  at: number;
  /** null: no HTTP answer (connection refused or reset, timeout). */
  status: number | null;
  code: string | null;
  retryAfter: string | null;
}

export interface InFlight {
  kind: RequestKind;
  api: string;
  userId: string;
  /** The capture's text, the sentence's text or the page translation's request_id. */
  key: string;
}

export interface SendRequest {
  kind: RequestKind;
  method: string;
  path: string;
  userId: string;
  key: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Index of the API that gets the first attempt (round robin otherwise). */
  pinApi?: number;
}

export type Outcome =
  | { ok: true; status: number; body: any; headers: Headers; attempts: number; sentAt: number; at: number }
  | { ok: false; status: number | null; body: any; attempts: number; sentAt: number; at: number; gaveUp: boolean };

const ATTEMPT_TIMEOUT_MS = 30_000;
const MAX_RETRY_AFTER_MS = 30_000;

export class CarefulClient {
  readonly answers: AnswerRecord[] = [];
  private readonly inflight = new Set<InFlight>();
  private next = 0;

  readonly apis: readonly { name: string; baseUrl: string }[];
  private readonly patienceMs: number;

  constructor(apis: readonly { name: string; baseUrl: string }[], patienceMs: number) {
    this.apis = apis;
    this.patienceMs = patienceMs;
  }

  /** What is waiting for an answer from `api` right now. */
  inflightOn(api: string): InFlight[] {
    return [...this.inflight].filter((f) => f.api === api);
  }

  async send(request: SendRequest): Promise<Outcome> {
    const sentAt = Date.now();
    let apiIndex = request.pinApi ?? this.next++ % this.apis.length;
    for (let attempt = 1; ; attempt++) {
      const api = this.apis[apiIndex % this.apis.length]!;
      const answer = await this.attempt(api, request);
      const patienceLeft = sentAt + this.patienceMs - Date.now();
      const final = { status: answer.status, body: answer.body, attempts: attempt, sentAt, at: Date.now() };
      if (answer.status !== null && answer.status < 400) return { ok: true, ...final, status: answer.status, headers: answer.headers };

      const wait = retryDelay(answer.status, answer.body?.code, answer.headers?.get('retry-after') ?? null, attempt);
      if (wait === null) return { ok: false, ...final, gaveUp: false };
      if (wait > patienceLeft) return { ok: false, ...final, gaveUp: true };
      // Behind a load balancer a refused connection goes to another instance.
      if (answer.status === null) apiIndex++;
      await sleep(wait);
    }
  }

  private async attempt(api: { name: string; baseUrl: string }, request: SendRequest) {
    const flight: InFlight = { kind: request.kind, api: api.name, userId: request.userId, key: request.key };
    const record: AnswerRecord = { kind: request.kind, api: api.name, sentAt: Date.now(), at: 0, status: null, code: null, retryAfter: null };
    this.inflight.add(flight);
    try {
      const res = await fetch(api.baseUrl + request.path, {
        method: request.method,
        headers: { ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      Object.assign(record, { status: res.status, code: typeof body?.code === 'string' ? body.code : null, retryAfter: res.headers.get('retry-after') });
      return { status: res.status, body, headers: res.headers };
    } catch {
      return { status: null, body: null, headers: undefined };
    } finally {
      this.inflight.delete(flight);
      record.at = Date.now();
      this.answers.push(record);
    }
  }
}

/** How long to wait before the same request again; null when the answer is final. */
function retryDelay(status: number | null, code: unknown, retryAfter: string | null, attempt: number): number | null {
  const backoff = Math.min(5_000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random());
  if (status === null) return backoff;
  if (status === 503 || status === 429) {
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    return Number.isFinite(seconds) && seconds >= 0 ? Math.min(MAX_RETRY_AFTER_MS, Math.max(200, seconds * 1000)) : backoff;
  }
  if (status === 409 && code === 'request_in_progress') return Math.max(1_000, backoff);
  return null;
}
