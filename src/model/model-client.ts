import type { z } from 'zod';
import type { Config } from '../config.ts';
import { costCeilingUsd, inputTokenBound, MODEL_NAME_MAX_LENGTH } from '../domain/model-budget.ts';
import { endpointModel } from './endpoint-model.ts';
import { AppError, isAppError } from '../domain/problems.ts';
import {
  inProcessOutputModes,
  OUTPUT_MODES,
  type OutputMode,
  type OutputModeMemory,
  REPAIR_NOTE_MAX_BYTES,
  repairNote,
  responseFormat,
  schemaInstructions,
  weakerMode,
} from './output-modes.ts';
import { NO_PROVIDER_MESSAGE, RequestRefused } from './provider-errors.ts';
import { createProviderHttp } from './provider-http.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { BreakerWait, ProviderBreaker } from '../services/provider-breaker.ts';
import type { ModelSlots, SlotWait } from '../services/model-slots.ts';
import { reportedCostUsd, tokenPricedCostUsd } from './provider-cost.ts';
import { recordModelCall, spendReporter, type SpendReporter } from './provider-spend.ts';
import { strictJsonSchema } from './strict-json-schema.ts';
import { judgedAnswer, type Repairable } from './structured-answer.ts';

export { strictJsonSchema } from './strict-json-schema.ts';

/**
 * The only way to the model provider (OpenRouter, or the deployment's own OpenAI-compatible chat
 * completions endpoint), and the one entry point of src/model. It owns the privacy routing policy
 * (router only), the structured output each endpoint takes (negotiated: output-modes.ts), one
 * repair of an invalid answer, and every request's `max_tokens`, so that what a call can cost is
 * known before it starts. Its parts, one concern each: HTTP and quick retries (provider-http.ts,
 * streams put together by event-stream.ts), the provider-error taxonomy (provider-errors.ts),
 * validation of the answer with zod (structured-answer.ts), the exact cost (provider-cost.ts) and
 * the zod → strict JSON Schema converter (strict-json-schema.ts).
 */

export interface StructuredRequest<T> {
  /** snake_case, e.g. 'capture_preparation'; sent as response_format.json_schema.name. */
  task: string;
  /** The answer's shape. A refinement's message reaches logs and problem details: it names ids or paths, never the answer's text. */
  schema: z.ZodType<T>;
  system: string;
  /** JSON-serialisable; sent as the user message. */
  input: unknown;
  /** The answer's token limit (`max_tokens`), sized per kind of work (domain/model-budget.ts). */
  maxTokens: number;
  signal?: AbortSignal;
  /**
   * Asked before the one repair of an invalid answer (a second answered call): false forbids it
   * (a card whose model-call budget is spent). Without it the repair is made.
   */
  mayRepair?: () => Promise<boolean>;
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
  /** The longest one `complete()` can take, every retry and wait included (a wait for a slot excepted). */
  readonly longestCallMs: number;
  /**
   * Runs `work` in one of the deployment's model slots (MODEL_MAX_CONCURRENCY), so that the calls
   * it makes wait for none: background work takes its slot before it holds credits. Without a cap, at once.
   */
  inSlot<T>(work: () => Promise<T>, wait: SlotWait): Promise<T>;
  /**
   * Runs `work` once the provider's breaker lets a call through, waiting while it is open (up to
   * `wait.maxWaitMs`), so that background work goes on as soon as a probe finds the provider back
   * rather than after its retry's backoff; the first call `work` makes goes on that admission.
   * Without a breaker, at once.
   */
  whenAdmitted<T>(work: () => Promise<T>, wait: BreakerWait): Promise<T>;
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

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/**
 * `slots`: the deployment's cap on calls in flight (src/services/model-slots.ts); each `complete()`
 * outside a slot of its caller's waits for one up to `concurrency.syncWaitMs`, before its own
 * time limit starts. `breaker`: the provider's circuit breaker (src/services/provider-breaker.ts), asked before every
 * call and told its outcome, so that while the provider is down every caller fails at once with
 * `service_unavailable` and `retryAt` instead of calling it. `outputModes`: what every process
 * knows of the endpoint's structured output (src/services/output-mode-memory.ts); one process's
 * memory without it.
 */
export function createModelClient(
  config: Config['model'],
  deps: { fetch?: typeof fetch; logger?: ModelClientLogger; breaker?: ProviderBreaker; outputModes?: OutputModeMemory; slots?: ModelSlots } = {},
): ModelClient {
  const log = deps.logger;
  const http = createProviderHttp(config, deps);
  const spend = spendReporter(log);
  const breaker = deps.breaker;
  const slots = deps.slots;
  const inSlot = <T>(work: () => Promise<T>, wait: SlotWait): Promise<T> => (slots ? slots.run(work, wait) : work());
  // An admission already given by the breaker (whenAdmitted), for the first request made within it.
  const admission = new AsyncLocalStorage<{ unused: boolean; probing: boolean }>();
  async function whenAdmitted<T>(work: () => Promise<T>, wait: BreakerWait): Promise<T> {
    if (!breaker) return work();
    const probing = await breaker.admitWaiting(wait);
    const given = { unused: true, probing };
    try {
      return await admission.run(given, work);
    } finally {
      // A probe never made (no credits, say) must not keep every other caller refused until it lapses.
      if (probing && given.unused) await breaker.probeUnused();
    }
  }
  /** Whether the call about to go is the breaker's probe. */
  async function admit(): Promise<boolean> {
    const given = admission.getStore();
    if (!given?.unused) return breaker!.admit();
    given.unused = false;
    return given.probing;
  }
  /** A call outside an admission is refused at once while the breaker is open, before it waits for a slot. */
  const refuseWhileOpen = async () => {
    if (breaker && !admission.getStore()?.unused) await breaker.refuseWhileOpen();
  };
  // MODEL_NAME unset: the endpoint is asked which model it serves before the first call, once per process (again after a failure).
  let naming: Promise<void> | undefined;
  const modelNamed = () =>
    (naming ??= endpointModel(http)
      .then((name) => {
        config.model = name;
        log?.warn({ model: name }, 'MODEL_NAME is not set: the model endpoint serves this one model, which is used');
      })
      .finally(() => {
        naming = undefined;
      }));
  const modes = deps.outputModes ?? inProcessOutputModes();
  const ownEndpoint = config.provider === 'openai-compatible';
  // The router takes a strict json_schema (require_parameters routes only to endpoints that do); an endpoint of the deployment's own may not.
  const sendable: readonly OutputMode[] = ownEndpoint ? OUTPUT_MODES : ['json_schema'];

  async function post(task: string, body: string, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    if (!breaker) return http.post({ task, body, signal });
    const probe = await admit();
    try {
      const answer = await http.post({ task, body, signal, probe });
      await breaker.succeeded();
      return answer;
    } catch (error) {
      if (!isAppError(error)) throw error; // cancelled: says nothing of the provider
      if (error.code === 'service_unavailable' && !(error instanceof RequestRefused)) {
        await breaker.failed(error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000);
      } else await breaker.succeeded(); // a verdict is an answer
      throw error;
    }
  }

  /**
   * One answered request in the remembered output mode, or, on the deployment's own endpoint, the
   * weaker ones after it where the endpoint refuses the request (HTTP 400/422); the mode that
   * answered is remembered.
   */
  async function postNegotiated(
    req: StructuredRequest<unknown>,
    extra: Message[],
  ): Promise<{ body: Record<string, unknown>; sentBytes: number; mode: OutputMode }> {
    const known = ownEndpoint ? await modes.recall() : null;
    for (let mode: OutputMode | null = known ?? sendable[0]!; mode;) {
      const text = requestBody(config, req, mode, extra);
      try {
        const body = await post(req.task, text, req.signal);
        if (mode !== (known ?? sendable[0])) {
          log?.warn({ task: req.task, outputMode: mode }, 'the model endpoint takes structured output only this way: remembered');
          await modes.remember(mode);
        }
        return { body, sentBytes: Buffer.byteLength(text), mode };
      } catch (error) {
        const weaker: OutputMode | null = ownEndpoint && error instanceof RequestRefused ? weakerMode(mode) : null;
        if (!weaker) throw error;
        log?.debug({ task: req.task, outputMode: mode, next: weaker }, 'the model endpoint refused this output mode');
        mode = weaker;
      }
    }
    throw new Error('unreachable: the weakest output mode throws');
  }

  async function judgedOnce<T>(req: StructuredRequest<T>, extra: Message[]) {
    const { body, sentBytes } = await postNegotiated(req, extra);
    const choice: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
    const content = (choice as { message?: { content?: unknown } } | undefined)?.message?.content;
    const costUsd = ownEndpoint
      ? tokenPricedCostUsd(
          body.usage,
          config.price,
          { promptTokens: inputTokenBound(sentBytes), completionTokens: typeof content === 'string' ? Buffer.byteLength(content) : 0 },
          req.task,
          log,
        )
      : reportedCostUsd(body.usage, req.task, log);
    return judgedAnswer(body, req, costUsd, config.model, log, spend);
  }

  /**
   * Every request of one call (the refused output modes, the answer, its repair) within the time
   * one call may take (`longestCallMs`): what credits are held for and activities wait by.
   */
  async function completeOnce<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    // A local server may need no key; the router always does.
    if (!config.apiKey && !ownEndpoint) throw new AppError('service_unavailable', NO_PROVIDER_MESSAGE);
    if (!config.model) await modelNamed();
    const overall = AbortSignal.timeout(http.longestCallMs);
    const req = { ...request, signal: request.signal ? AbortSignal.any([request.signal, overall]) : overall };
    try {
      return await judgedWithRepair(req);
    } catch (error) {
      if (!overall.aborted || request.signal?.aborted) throw error;
      throw new AppError('service_unavailable', `The model provider did not answer within ${http.longestCallMs} ms`);
    }
  }

  async function judgedWithRepair<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const first = await judgedOnce(req, []);
    if (first.ok) return first.result;
    if (!first.repairable || (req.mayRepair && !(await req.mayRepair()))) throw first.error;
    // One repair: the model sees its answer and what was wrong with it.
    const repaired = await judgedOnce(req, repairMessages(first.repairable));
    if (repaired.ok) return repaired.result;
    throw repaired.error;
  }

  return {
    async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      try {
        await refuseWhileOpen();
        // The slot is waited for first: completeOnce's time limit starts once the call may go.
        const result = await inSlot(() => completeOnce(req), { maxWaitMs: config.concurrency.syncWaitMs, signal: req.signal });
        recordModelCall(req.task, 'ok');
        return result;
      } catch (error) {
        recordModelCall(req.task, isAppError(error) ? error.code : 'cancelled');
        throw error;
      }
    },
    costCeilingUsd(req) {
      // The largest request any output mode sends, and its repair: the earlier answer (at most
      // max_tokens) and the note (at most one token a byte) come back as input, with their
      // messages' markers. Only the answer kept is charged.
      // A name not yet asked of the endpoint counts at the longest one taken.
      const named = config.model ? config : { ...config, model: 'x'.repeat(MODEL_NAME_MAX_LENGTH) };
      const bytes = Math.max(...sendable.map((mode) => Buffer.byteLength(requestBody(named, req, mode, []))));
      const input = inputTokenBound(bytes + REPAIR_NOTE_MAX_BYTES) + req.maxTokens;
      return costCeilingUsd({ input, output: req.maxTokens }, config.price);
    },
    longestCallMs: http.longestCallMs,
    inSlot,
    whenAdmitted,
    recordUnbilled: (unbilled) => spend.recordUnbilled(unbilled),
  };
}

/** The repair's messages after the first two: the model's answer (unless it was empty) and what was wrong with it. */
const repairMessages = (repairable: Repairable): Message[] => [
  ...(repairable.content === '' ? [] : [{ role: 'assistant' as const, content: repairable.content }]),
  { role: 'user', content: repairNote(repairable.problems) },
];

/**
 * The chat completions request in one output mode; `costCeilingUsd` measures the same text that
 * is sent. The router's own members (privacy routing, usage accounting) go to the router only.
 */
function requestBody(config: Config['model'], req: StructuredRequest<unknown>, mode: OutputMode, extra: Message[]): string {
  const schema = strictJsonSchema(req.schema);
  const format = responseFormat(mode, req.task, schema);
  const system = mode === 'json_schema' ? req.system : req.system + schemaInstructions(req.task, schema);
  const router = config.provider !== 'openai-compatible';
  return JSON.stringify({
    model: config.model,
    messages: [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify(req.input) }, ...extra],
    ...(format ? { response_format: format } : {}),
    max_tokens: req.maxTokens,
    ...(router ? { provider: PRIVACY_PROVIDER_PREFERENCES, usage: { include: true } } : { stream: false }),
  });
}
