import { setTimeout as sleep } from 'node:timers/promises';
import type { Span } from '@opentelemetry/api';
import { AppError } from '../domain/problems.ts';
import { longestModelCallMs, QUICK_RETRY_AFTER_LIMIT_MS } from '../domain/retry-policy.ts';
import type { Config } from '../config.ts';
import { histogram } from '../platform/metrics.ts';
import { inSpan } from '../platform/telemetry.ts';
import { assembledStream, isEventStream } from './event-stream.ts';
import { isRecord, parseJsonExact } from './exact-json.ts';
import type { ModelClientLogger } from './model-client.ts';
import { httpFailure, noAnswer, type ProviderFailure, RequestRefused, unreadableAnswer } from './provider-errors.ts';

/**
 * HTTP to the provider's chat completions endpoint: a timeout per attempt, and a few quick
 * retries of transient failures within one call. Longer retries belong to the calling activity.
 */

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 2_000;

const callDuration = histogram(
  'lcs_provider_call_duration_seconds',
  'Time of one model provider call, its quick retries included, by task and whether it brought an answer',
  ['task', 'answered'],
  [0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, 120],
);

interface ProviderCall {
  /** For logs and metrics only. */
  task: string;
  body: string;
  signal?: AbortSignal | undefined;
  /** The breaker's probe: one request and no quick retries, so that a provider still down hears it once. */
  probe?: boolean | undefined;
}

type Attempt = { ok: true; body: Record<string, unknown> } | ({ ok: false } & ProviderFailure);

export interface ProviderHttp {
  /** The answer's JSON (numbers as exact decimal text), or the catalog error of the last failure. */
  post(call: ProviderCall): Promise<Record<string, unknown>>;
  /** The longest one `post()` can take, every retry and wait included. */
  readonly longestCallMs: number;
  /** GET of another path of the endpoint (`/models`), with the same key and one request's timeout: its status and JSON body (undefined if none). */
  get(path: string): Promise<{ status: number; body: unknown }>;
}

export function createProviderHttp(config: Config['model'], deps: { fetch?: typeof fetch; logger?: ModelClientLogger | undefined } = {}): ProviderHttp {
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const log = deps.logger;
  const base = config.baseUrl.replace(/\/+$/, '');
  const url = `${base}/chat/completions`;
  // A local server needs no key: then none is sent.
  const auth: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
  const headers = { ...auth, 'content-type': 'application/json' };

  async function attemptOnce(call: ProviderCall, attempt: number): Promise<Attempt> {
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const started = performance.now();
    const meta = () => ({ task: call.task, attempt, latencyMs: Math.round(performance.now() - started) });

    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers,
        body: call.body,
        signal,
      });
      text = await res.text();
    } catch {
      if (call.signal?.aborted) throw call.signal.reason;
      const timedOut = timeout.aborted;
      log?.warn({ ...meta(), reason: timedOut ? 'timeout' : 'network' }, 'model request failed');
      return { ok: false, ...noAnswer(timedOut ? config.timeoutMs : null) };
    }

    let parsed: unknown;
    try {
      // A server that streams although asked not to: its chunks make the one answer.
      parsed = isEventStream(res.headers.get('content-type'), text) ? (assembledStream(text) ?? undefined) : parseJsonExact(text);
    } catch {
      parsed = undefined;
    }
    const json = isRecord(parsed) ? parsed : undefined;
    // OpenRouter may report an upstream failure as HTTP 200 with an `error` member.
    const errorCode = json && !json.choices && isRecord(json.error) ? Number(json.error.code) : NaN;
    const status = res.ok && Number.isInteger(errorCode) ? errorCode : res.status;

    if (status >= 200 && status < 300) {
      if (!json) {
        log?.warn({ ...meta(), status }, 'model response was not JSON');
        return { ok: false, ...unreadableAnswer() };
      }
      log?.debug({ ...meta(), status }, 'model request succeeded');
      return { ok: true, body: json };
    }

    const failure = httpFailure(status, json, res.headers.get('retry-after'));
    log?.warn({ ...meta(), status, code: failure.error.code, retryable: failure.retryable }, 'model request failed');
    return { ok: false, ...failure };
  }

  /** Attempts until an answer, a final failure, or a wait longer than the call may take. */
  async function withQuickRetries(call: ProviderCall, span: Span): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      span.setAttribute('lcs.attempts', attempt);
      const outcome = await attemptOnce(call, attempt);
      if (outcome.ok) return outcome.body;
      if (!outcome.retryable || call.probe || attempt > config.maxRetries) throw withRetryAfter(outcome);
      const delay = outcome.retryAfterMs ?? backoffMs(attempt);
      if (delay > QUICK_RETRY_AFTER_LIMIT_MS) throw withRetryAfter(outcome);
      try {
        await sleep(delay, undefined, call.signal ? { signal: call.signal } : {});
      } catch {
        throw call.signal?.reason;
      }
    }
  }

  return {
    // One span and one timing per call, its quick retries included: the task and the attempts, never the prompt.
    post: (call) =>
      inSpan('provider call', { 'lcs.task': call.task }, async (span) => {
        const timer = callDuration.startTimer({ task: call.task });
        try {
          const body = await withQuickRetries(call, span);
          timer({ answered: 'true' });
          return body;
        } catch (error) {
          timer({ answered: 'false' });
          throw error;
        }
      }),
    longestCallMs: longestModelCallMs(config.timeoutMs, config.maxRetries),
    async get(path) {
      const res = await fetchImpl(`${base}${path}`, {
        headers: auth,
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    },
  };
}

/** The failure's error, carrying the provider's Retry-After when it gave one (the breaker opens for at least as long). */
function withRetryAfter(failure: ProviderFailure): AppError {
  const { error, retryAfterMs } = failure;
  if (retryAfterMs === undefined) return error;
  const Kind = error instanceof RequestRefused ? RequestRefused : AppError;
  return new Kind(error.code, error.message, error.extensions, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
}

function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)) + Math.random() * 100;
}
