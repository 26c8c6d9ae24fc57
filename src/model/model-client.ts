import type { z } from 'zod';
import type { Config } from '../config.ts';
import { costCeilingUsd, inputTokenBound } from '../domain/model-budget.ts';
import { AppError, isAppError } from '../domain/problems.ts';
import { NO_PROVIDER_MESSAGE } from './provider-errors.ts';
import { createProviderHttp } from './provider-http.ts';
import type { ProviderBreaker } from '../services/provider-breaker.ts';
import { recordModelCall, spendReporter, type SpendReporter } from './provider-spend.ts';
import { strictJsonSchema } from './strict-json-schema.ts';
import { validatedAnswer } from './structured-answer.ts';

export { strictJsonSchema } from './strict-json-schema.ts';

/**
 * The only way to the model provider (OpenRouter, OpenAI-compatible chat completions with
 * structured outputs), and the one entry point of src/model. It owns the privacy routing policy
 * and every request's `max_tokens`, so that what a call can cost is known before it starts. Its
 * parts, one concern each: HTTP and quick retries (provider-http.ts), the provider-error taxonomy
 * (provider-errors.ts), validation of the answer with zod (structured-answer.ts), the exact cost
 * (provider-cost.ts) and the zod → strict JSON Schema converter (strict-json-schema.ts).
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

/** Every request carries user content: the provider must not collect it and must retain nothing (zero data retention). */
const PRIVACY_PROVIDER_PREFERENCES = {
  data_collection: 'deny',
  zdr: true,
  require_parameters: true,
} as const;

/**
 * `breaker`: the provider's circuit breaker (src/services/provider-breaker.ts), asked before every
 * call and told its outcome, so that while the provider is down every caller fails at once with
 * `service_unavailable` and `retryAt` instead of calling it.
 */
export function createModelClient(
  config: Config['model'],
  deps: { fetch?: typeof fetch; logger?: ModelClientLogger; breaker?: ProviderBreaker } = {},
): ModelClient {
  const log = deps.logger;
  const http = createProviderHttp(config, deps);
  const spend = spendReporter(log);
  const breaker = deps.breaker;

  async function post(req: StructuredRequest<unknown>): Promise<Record<string, unknown>> {
    if (!breaker) return http.post({ task: req.task, body: requestBody(config.model, req), signal: req.signal });
    await breaker.admit();
    try {
      const body = await http.post({ task: req.task, body: requestBody(config.model, req), signal: req.signal });
      await breaker.succeeded();
      return body;
    } catch (error) {
      if (!isAppError(error)) throw error; // cancelled: says nothing of the provider
      if (error.code === 'service_unavailable') await breaker.failed(error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000);
      else await breaker.succeeded(); // a verdict is an answer
      throw error;
    }
  }

  async function completeOnce<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    if (!config.apiKey) throw new AppError('service_unavailable', NO_PROVIDER_MESSAGE);
    const body = await post(req);
    return validatedAnswer(body, req, config.model, log, spend);
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
    longestCallMs: http.longestCallMs,
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
