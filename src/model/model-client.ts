import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { costCeilingUsd, inputTokenBound } from '../domain/model-budget.ts';
import { AppError, isAppError } from '../domain/problems.ts';
import { parseJsonExact, toPlainDecimal } from './exact-json.ts';
import { recordModelCall, recordProviderCost, spendReporter, type SpendReporter } from './provider-spend.ts';

/**
 * The only module that talks to the model provider (OpenRouter, OpenAI-compatible chat
 * completions with structured outputs). It owns the privacy routing policy, per-attempt
 * timeouts, a few quick retries for transient failures, exact cost capture and the mapping of
 * every failure onto the problem catalog. Longer retries belong to the calling activity.
 * Every request carries `max_tokens`, so that what a call can cost is known before it starts.
 */

export interface StructuredRequest<T> {
  /** snake_case, e.g. 'capture_preparation'; sent as response_format.json_schema.name. */
  task: string;
  schema: z.ZodType<T>;
  system: string;
  /** JSON-serialisable; sent as the user message. */
  input: unknown;
  /** The answer's token limit (`max_tokens`), sized per kind of work (domain/model-budget.ts). */
  maxTokens: number;
  signal?: AbortSignal;
}

export interface StructuredResult<T> {
  data: T;
  /** Provider cost in USD, the exact decimal text from the response (never a rounded double). */
  costUsd: string;
  model: string;
  generationId: string | null;
}

export interface ModelClient extends SpendReporter {
  complete<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /** The most `complete(request)` can cost, in USD (exact decimal text): what credits are held against. */
  costCeilingUsd(request: StructuredRequest<unknown>): string;
  /** The longest one `complete()` can take, every retry and wait included. */
  readonly longestCallMs: number;
}

export interface ModelClientLogger {
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export const NO_PROVIDER_MESSAGE =
  'No model provider is configured: set OPENROUTER_API_KEY (or MODEL_PROVIDER=fake for local testing)';

/** Every request carries user content: no data collection, zero data retention (spec §1.6). */
export const PRIVACY_PROVIDER_PREFERENCES = {
  data_collection: 'deny',
  zdr: true,
  require_parameters: true,
} as const;

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** A longer Retry-After is left to the activity's own retry schedule. */
const MAX_RETRY_AFTER_MS = 5_000;
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 2_000;

/**
 * OpenRouter refuses a request no endpoint can serve under our routing constraints with
 * HTTP 404 "No endpoints found matching your data policy ...". Some gateways report the same
 * as 503. So: a 404 or 503 whose error message mentions the data policy, privacy, zero data
 * retention or "no endpoints found" is `privacy_routing_unavailable` and is not retried
 * (retrying cannot change the routing). Any other 404 is a plain upstream failure, and a 503
 * without such a message is transient: retried, then `service_unavailable`.
 */
const PRIVACY_REFUSAL = /data policy|no endpoints found|privacy|zero data retention/i;

type Attempt =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; retryable: boolean; retryAfterMs?: number; error: AppError };

export function createModelClient(
  config: Config['model'],
  deps: { fetch?: typeof fetch; logger?: ModelClientLogger } = {},
): ModelClient {
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const log = deps.logger;
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function attemptOnce(body: string, req: StructuredRequest<unknown>, attempt: number): Promise<Attempt> {
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const started = performance.now();
    const meta = () => ({ task: req.task, attempt, latencyMs: Math.round(performance.now() - started) });

    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json' },
        body,
        signal,
      });
      text = await res.text();
    } catch {
      if (req.signal?.aborted) throw req.signal.reason;
      const timedOut = timeout.aborted;
      log?.warn({ ...meta(), reason: timedOut ? 'timeout' : 'network' }, 'model request failed');
      const detail = timedOut
        ? `The model provider did not answer within ${config.timeoutMs} ms`
        : 'The model provider could not be reached';
      return { ok: false, retryable: true, error: new AppError('service_unavailable', detail) };
    }

    let parsed: unknown;
    try {
      parsed = parseJsonExact(text);
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
        return { ok: false, retryable: true, error: new AppError('service_unavailable', 'The model provider sent an unreadable response') };
      }
      log?.debug({ ...meta(), status }, 'model request succeeded');
      return { ok: true, body: json };
    }

    const failure = classifyHttpFailure(status, errorMessage(json), res.headers.get('retry-after'));
    log?.warn({ ...meta(), status, code: failure.error.code, retryable: failure.retryable }, 'model request failed');
    return failure;
  }

  const spend = spendReporter(log);

  async function completeOnce<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    if (!config.apiKey) throw new AppError('service_unavailable', NO_PROVIDER_MESSAGE);
    const body = requestBody(config.model, req);
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(body, req, attempt);
      if (outcome.ok) return interpretAnswer(outcome.body, req, config.model, log, spend);
      if (!outcome.retryable || attempt > config.maxRetries) throw outcome.error;
      const delay = outcome.retryAfterMs ?? backoffMs(attempt);
      if (delay > MAX_RETRY_AFTER_MS) throw outcome.error;
      try {
        await sleep(delay, undefined, req.signal ? { signal: req.signal } : {});
      } catch {
        throw req.signal?.reason;
      }
    }
  }

  return {
    async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      try {
        const result = await completeOnce(req);
        recordModelCall(req.task, 'ok');
        return result;
      } catch (error) {
        recordModelCall(req.task, isAppError(error) ? error.code : 'cancelled');
        throw error;
      }
    },
    costCeilingUsd(req) {
      const bytes = Buffer.byteLength(requestBody(config.model, req));
      return costCeilingUsd({ input: inputTokenBound(bytes), output: req.maxTokens }, config.price);
    },
    longestCallMs: config.timeoutMs * (config.maxRetries + 1) + config.maxRetries * MAX_RETRY_AFTER_MS,
    recordUnbilled: (unbilled) => spend.recordUnbilled(unbilled),
  };
}

/** The chat completions request; `costCeilingUsd` measures the same text that is sent. */
function requestBody(model: string, req: StructuredRequest<unknown>): string {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: req.system },
      { role: 'user', content: JSON.stringify(req.input) },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: req.task, strict: true, schema: strictJsonSchema(req.schema) },
    },
    max_tokens: req.maxTokens,
    provider: PRIVACY_PROVIDER_PREFERENCES,
    usage: { include: true },
  });
}

function classifyHttpFailure(status: number, message: string, retryAfter: string | null): Attempt & { ok: false } {
  if ((status === 404 || status === 503) && PRIVACY_REFUSAL.test(message)) {
    return {
      ok: false,
      retryable: false,
      error: new AppError(
        'privacy_routing_unavailable',
        'No model endpoint is available that guarantees zero data retention and no data collection',
      ),
    };
  }
  const detail =
    status === 401 || status === 403
      ? `The model provider rejected the credentials (HTTP ${status})`
      : status === 402
        ? 'The model provider account has insufficient credit (HTTP 402)'
        : `The model provider failed (HTTP ${status})`;
  const retryAfterMs = retryAfter === null ? undefined : parseRetryAfter(retryAfter);
  return {
    ok: false,
    retryable: RETRYABLE_STATUSES.has(status),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    error: new AppError('service_unavailable', detail),
  };
}

/**
 * Why an answer was rejected (the `outputProblem` member of its problem). A refusal or an answer
 * cut off at its length limit will not get better by asking again; the others may.
 */
export type OutputProblem = 'refused' | 'no_content' | 'cut_off' | 'not_json' | 'schema_violation';

function interpretAnswer<T>(
  body: Record<string, unknown>,
  req: StructuredRequest<T>,
  configuredModel: string,
  log: ModelClientLogger | undefined,
  spend: SpendReporter,
): StructuredResult<T> {
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  const costUsd = costOf(body.usage, req.task, log);
  recordProviderCost(req.task, costUsd);
  const invalid = (problem: OutputProblem, reason: string) => {
    log?.warn({ task: req.task, reason }, 'model output rejected');
    spend.recordUnbilled({ task: req.task, reason: 'invalid_output', costUsd });
    return new AppError('provider_output_invalid', `The model answer for ${req.task} was rejected: ${reason}`, { outputProblem: problem });
  };

  if (typeof message?.content !== 'string' || message.content === '') {
    throw typeof message?.refusal === 'string' ? invalid('refused', 'the model refused') : invalid('no_content', 'no content');
  }
  // An answer cut off at max_tokens is incomplete even where what arrived happens to parse.
  if (isRecord(choice) && choice.finish_reason === 'length') throw invalid('cut_off', 'output cut off');
  let answer: unknown;
  try {
    answer = JSON.parse(message.content);
  } catch {
    throw invalid('not_json', 'not JSON');
  }
  const result = req.schema.safeParse(answer);
  if (!result.success) {
    // Paths and issue codes only: the answer may echo user content.
    const where = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.code}`)
      .join(', ');
    throw invalid('schema_violation', `schema violation at ${where}`);
  }

  return {
    data: result.data,
    costUsd,
    model: typeof body.model === 'string' ? body.model : configuredModel,
    generationId: typeof body.id === 'string' ? body.id : null,
  };
}

/** `parseJsonExact` already turned the number into its exact decimal text. */
function costOf(usage: unknown, task: string, log: ModelClientLogger | undefined): string {
  const cost = isRecord(usage) ? usage.cost : undefined;
  if (cost === undefined || cost === null) return '0';
  try {
    return toPlainDecimal(String(cost));
  } catch {
    log?.warn({ task }, 'model response carried an unreadable cost; recorded as 0');
    return '0';
  }
}

const schemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The JSON schema of what the model must produce, i.e. the zod schema's *input* side, adjusted
 * for OpenAI strict mode: every object closed and every property listed as required (an
 * optional zod field still accepts the value the model is then forced to give). Keywords strict
 * mode rejects are dropped; zod still enforces them on the answer.
 */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let cached = schemaCache.get(schema);
  if (!cached) {
    const raw = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
    const { $schema: _ignored, ...rest } = strictify(raw) as Record<string, unknown>;
    cached = rest;
    schemaCache.set(schema, cached);
  }
  return cached;
}

const UNSUPPORTED_IN_STRICT = new Set([
  'minLength', 'maxLength', 'propertyNames', 'patternProperties', 'minProperties', 'maxProperties', 'uniqueItems',
]);

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNSUPPORTED_IN_STRICT.has(key)) continue;
    // `properties`, `definitions` and `$defs` map names to schemas; the names are not keywords.
    out[key] =
      (key === 'properties' || key === 'definitions' || key === '$defs') && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictify(v)]))
        : strictify(value);
  }
  if (isRecord(out.properties)) {
    out.required = Object.keys(out.properties);
    if (!isRecord(out.additionalProperties)) out.additionalProperties = false;
  }
  return out;
}

function errorMessage(json: Record<string, unknown> | undefined): string {
  const error = json?.error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return typeof json?.message === 'string' ? json.message : '';
}

function parseRetryAfter(value: string): number | undefined {
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)) + Math.random() * 100;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
