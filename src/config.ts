import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy } from './domain/client-address.ts';
import { originOf } from './domain/origins.ts';
import { BREAKER_DEFAULTS } from './domain/circuit-breaker.ts';
import { LONGEST_MODEL_CALL_LIMIT_MS, longestModelCallMs, PROVIDER_WAIT } from './domain/retry-policy.ts';
import { MODEL_NAME_MAX_LENGTH } from './domain/model-budget.ts';
import { importCardsPerHour, libraryMaxCards } from './domain/plans.ts';

/**
 * Every setting the service reads, with its default. The README's table mirrors this file.
 * Unset DATABASE_URL / TEMPORAL_ADDRESS mean "start the embedded one" (only `npm start` does).
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Retention bounds by default; the API reference quotes them (README, "Retention and housekeeping"). */
export const RETENTION_DEFAULTS = {
  outboxDays: 7,
  idempotencyHours: 24,
  translationCacheDays: 30,
  translationCacheMaxRows: 200_000,
  unlinkedAudioDays: 7,
  encounterDays: 30,
} as const;

/** Origins as browsers send them; one with no nameable origin (`data:`, `file:`, "null") is refused. */
const origins = z
  .string()
  .default('')
  .transform((value, ctx) =>
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((entry) => {
        const origin = originOf(entry);
        if (origin === null) ctx.addIssue({ code: 'custom', message: `${entry} has no origin a browser could send (use http(s):// or chrome-extension://…)` });
        return origin ?? '';
      }),
  );

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  ALLOWED_ORIGINS: origins,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('language-capture'),
  TEMPORAL_UI_PORT: z.coerce.number().int().default(8233),
  TEMPORAL_UI_URL: z.string().url().optional(),
  // Unset: the deployment's own endpoint when MODEL_BASE_URL is set, else the router.
  MODEL_PROVIDER: z.enum(['openrouter', 'openai-compatible', 'fake']).optional(),
  OPENROUTER_API_KEY: z.string().optional(),
  OPENROUTER_BASE_URL: z.string().url().default('https://openrouter.ai/api/v1'),
  OPENROUTER_MODEL: z.string().default('openai/gpt-4o-mini'),
  // MODEL_PROVIDER=openai-compatible: the deployment's own Chat Completions endpoint (Ollama, llama.cpp, LM Studio, vLLM, OpenAI).
  MODEL_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Unset: the one model the endpoint's GET /models lists (src/model/endpoint-model.ts).
  MODEL_NAME: z.string().trim().min(1).max(MODEL_NAME_MAX_LENGTH).optional(),
  MODEL_API_KEY: z.string().optional(),
  MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // The most model calls in flight across every API and worker process (src/services/model-slots.ts); unset: no cap.
  MODEL_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).optional(),
  // How long a synchronous request (page translation, sentences, drafts) waits for a slot before its 503.
  MODEL_SLOT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  // How background work waits out a provider outage (src/domain/retry-policy.ts, PROVIDER_WAIT); shorter only for tests and the chaos run.
  PROVIDER_WAIT_WINDOW_MS: z.coerce.number().int().min(1_000).max(PROVIDER_WAIT.windowMs).default(PROVIDER_WAIT.windowMs),
  PROVIDER_WAIT_MAX_DELAY_MS: z.coerce.number().int().min(1_000).max(PROVIDER_WAIT.maxDelayMs).default(PROVIDER_WAIT.maxDelayMs),
  // The provider's circuit breaker (src/services/provider-breaker.ts): how long it stays open before each probe.
  PROVIDER_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(60_000).default(BREAKER_DEFAULTS.openMs),
  // OpenRouter's list price of the default model (openai/gpt-4o-mini); credits are held against it.
  MODEL_INPUT_USD_PER_MILLION_TOKENS: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('0.15'),
  MODEL_OUTPUT_USD_PER_MILLION_TOKENS: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('0.6'),
  TTS_BASE_URL: z.string().url().optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().default('gpt-4o-mini-tts'),
  TTS_VOICE: z.string().default('alloy'),
  TTS_COST_PER_MILLION_CHARS_USD: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('15'),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_MODEL_MAX: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_ADDRESS_MAX: z.coerce.number().int().positive().default(1200),
  RATE_LIMIT_SIGNUP_MAX: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_EXPORT_MAX: z.coerce.number().int().positive().default(6),
  EXPORT_MAX_CONCURRENT: z.coerce.number().int().positive().default(3),
  EXPORT_MAX_SECONDS: z.coerce.number().int().positive().default(900),
  // A library's size and how fast imports may grow it, per plan (src/domain/plans.ts).
  LIBRARY_MAX_CARDS_FREE: z.coerce.number().int().positive().default(libraryMaxCards.free),
  LIBRARY_MAX_CARDS_PAID: z.coerce.number().int().positive().default(libraryMaxCards.paid),
  IMPORT_CARDS_PER_HOUR_FREE: z.coerce.number().int().positive().default(importCardsPerHour.free),
  IMPORT_CARDS_PER_HOUR_PAID: z.coerce.number().int().positive().default(importCardsPerHour.paid),
  // Import files (src/features/library/imports/reading.ts): read in worker threads, each bounded.
  IMPORT_READS_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(2),
  IMPORT_READ_DEADLINE_SECONDS: z.coerce.number().positive().max(600).default(30),
  IMPORT_READ_MEMORY_MB: z.coerce.number().int().min(32).max(8192).default(512),
  STATUS_STREAMS_PER_USER: z.coerce.number().int().positive().default(5),
  STATUS_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  AUDIO_QUOTA_CLIPS: z.coerce.number().int().positive().default(100),
  AUDIO_QUOTA_WINDOW_HOURS: z.coerce
    .number()
    .int()
    .positive()
    .max(24 * 366)
    .default(24),
  SECURE_COOKIES: bool,
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
      return 'value' in parsed ? parsed.value : false;
    }),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  STARTUP_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(120),
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  HOUSEKEEPING_BATCH_ROWS: z.coerce.number().int().min(1).max(10_000).default(500),
  HOUSEKEEPING_MAX_ROWS_PER_TABLE: z.coerce.number().int().positive().default(50_000),
  // Below the sweep activity's 5-minute start-to-close timeout (src/workflows/housekeeping.ts).
  HOUSEKEEPING_MAX_SECONDS_PER_TABLE: z.coerce.number().int().min(1).max(120).default(20),
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().positive().default(RETENTION_DEFAULTS.outboxDays),
  RETENTION_IDEMPOTENCY_HOURS: z.coerce.number().int().positive().default(RETENTION_DEFAULTS.idempotencyHours),
  RETENTION_TRANSLATION_CACHE_DAYS: z.coerce.number().int().positive().default(RETENTION_DEFAULTS.translationCacheDays),
  RETENTION_TRANSLATION_CACHE_MAX_ROWS: z.coerce.number().int().positive().default(RETENTION_DEFAULTS.translationCacheMaxRows),
  RETENTION_UNLINKED_AUDIO_DAYS: z.coerce.number().int().positive().default(RETENTION_DEFAULTS.unlinkedAudioDays),
  // Longer than the 7 days a batch's encounters may be late (src/features/library/encounter-rules.ts):
  // a batch sent again within them must still find its rows, or it would count twice.
  RETENTION_ENCOUNTER_DAYS: z.coerce.number().int().min(8).default(RETENTION_DEFAULTS.encounterDays),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const provider = e.MODEL_PROVIDER ?? (e.MODEL_BASE_URL ? 'openai-compatible' : 'openrouter');
  if (provider === 'openai-compatible' && !e.MODEL_BASE_URL) {
    throw new Error('Invalid configuration:\n  MODEL_PROVIDER=openai-compatible needs MODEL_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)');
  }
  if (longestModelCallMs(e.MODEL_TIMEOUT_MS, e.MODEL_MAX_RETRIES) > LONGEST_MODEL_CALL_LIMIT_MS) {
    throw new Error(
      'Invalid configuration:\n  MODEL_TIMEOUT_MS × (MODEL_MAX_RETRIES + 1), with 5 s between retries, ' +
        `may be at most ${LONGEST_MODEL_CALL_LIMIT_MS / 60_000} minutes: ` +
        'background work must be able to wait for a model slot and still make its call within one attempt',
    );
  }
  const ownEndpoint = provider === 'openai-compatible';
  const dataDir = path.resolve(e.DATA_DIR);
  // Origins compare exactly, so normalise (no trailing slash, default ports dropped).
  const publicOrigin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : `http://localhost:${e.PORT}`;
  // Locally the page may be opened as localhost or as 127.0.0.1: both are the service's own.
  const localAliases = e.PUBLIC_ORIGIN ? [] : [`http://127.0.0.1:${e.PORT}`];
  return {
    port: e.PORT,
    host: e.HOST,
    publicOrigin,
    allowedOrigins: [publicOrigin, ...localAliases, ...e.ALLOWED_ORIGINS],
    dataDir,
    databaseUrl: e.DATABASE_URL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      uiPort: e.TEMPORAL_UI_PORT,
      /** Where operators open the Temporal Web UI; `npm start`'s own by default. */
      uiUrl: e.TEMPORAL_UI_URL ?? `http://localhost:${e.TEMPORAL_UI_PORT}`,
    },
    model: {
      provider,
      /** Optional on the deployment's own endpoint (a local server needs none): then no Authorization header is sent. */
      apiKey: ownEndpoint ? e.MODEL_API_KEY : e.OPENROUTER_API_KEY,
      baseUrl: ownEndpoint ? e.MODEL_BASE_URL! : e.OPENROUTER_BASE_URL,
      /** Empty until the endpoint has said which model it serves, when MODEL_NAME is not set (src/model/endpoint-model.ts). */
      model: ownEndpoint ? (e.MODEL_NAME ?? '') : e.OPENROUTER_MODEL,
      timeoutMs: e.MODEL_TIMEOUT_MS,
      maxRetries: e.MODEL_MAX_RETRIES,
      /** The deployment's cap on model calls in flight, all processes together (null: none), and how long a synchronous request waits for one. */
      concurrency: { max: e.MODEL_MAX_CONCURRENCY ?? null, syncWaitMs: e.MODEL_SLOT_WAIT_MS },
      /**
       * What one call may cost at most is held from the wallet before it starts (see README, Credits); on the
       * deployment's own endpoint, which reports no cost, they also price the tokens it reports (0: free).
       */
      price: {
        inputUsdPerMillionTokens: e.MODEL_INPUT_USD_PER_MILLION_TOKENS,
        outputUsdPerMillionTokens: e.MODEL_OUTPUT_USD_PER_MILLION_TOKENS,
      },
    },
    /** How background work waits out an outage of the provider, and how long the provider's breaker stays open. */
    providerOutage: {
      wait: {
        windowMs: e.PROVIDER_WAIT_WINDOW_MS,
        initialDelayMs: Math.min(PROVIDER_WAIT.initialDelayMs, e.PROVIDER_WAIT_MAX_DELAY_MS),
        maxDelayMs: e.PROVIDER_WAIT_MAX_DELAY_MS,
      },
      breakerOpenMs: e.PROVIDER_BREAKER_OPEN_MS,
    },
    tts: {
      baseUrl: e.TTS_BASE_URL,
      apiKey: e.TTS_API_KEY,
      model: e.TTS_MODEL,
      voice: e.TTS_VOICE,
      costPerMillionCharsUsd: e.TTS_COST_PER_MILLION_CHARS_USD,
    },
    rateLimit: {
      /** Per user, shared by every API process: a bucket of `max` refilled over the window. */
      max: e.RATE_LIMIT_MAX,
      modelMax: e.RATE_LIMIT_MODEL_MAX,
      /** Library exports, per user: each reads the whole library. */
      exportMax: e.RATE_LIMIT_EXPORT_MAX,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      /** Per client address and API process, before any credential is looked up. */
      addressMax: e.RATE_LIMIT_ADDRESS_MAX,
      /** Sign-ups per client address and hour, shared by every API process. */
      signupMaxPerHour: e.RATE_LIMIT_SIGNUP_MAX,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    /** Library exports: one in flight per user (all processes), `maxConcurrent` per API process, each cut off after `maxSeconds`. */
    exports: { maxConcurrent: e.EXPORT_MAX_CONCURRENT, maxSeconds: e.EXPORT_MAX_SECONDS },
    /** Per plan: the cards a library may hold, and the new cards imports may create per hour. */
    library: {
      maxCards: { free: e.LIBRARY_MAX_CARDS_FREE, paid: e.LIBRARY_MAX_CARDS_PAID },
      importCardsPerHour: { free: e.IMPORT_CARDS_PER_HOUR_FREE, paid: e.IMPORT_CARDS_PER_HOUR_PAID },
    },
    /** Import files: each read in a thread of its own with `memoryMb` of heap, ended after `deadlineMs`; `maxConcurrent` per API process, one per learner. */
    imports: {
      reading: {
        maxConcurrent: e.IMPORT_READS_MAX_CONCURRENT,
        deadlineMs: Math.round(e.IMPORT_READ_DEADLINE_SECONDS * 1000),
        memoryMb: e.IMPORT_READ_MEMORY_MB,
      },
    },
    /** Open `status.changes` streams per user and per client address, in each API process. */
    statusStreams: { perUser: e.STATUS_STREAMS_PER_USER, perAddress: e.STATUS_STREAMS_PER_ADDRESS },
    /** New audio generations a user may start per sliding window (cached clips are not counted). */
    audioQuota: { clips: e.AUDIO_QUOTA_CLIPS, windowHours: e.AUDIO_QUOTA_WINDOW_HOURS },
    secureCookies: e.SECURE_COOKIES || publicOrigin.startsWith('https://'),
    /** Which X-Forwarded-For entry is the client: off, or the proxies' addresses and ranges (Fastify's `trustProxy`; `true` and hop counts are refused). */
    trustProxy: e.TRUST_PROXY,
    /** Prometheus metrics listener (`GET /metrics`); off unless a port is set (`npm start` defaults to 9464). */
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    /** OpenTelemetry traces go to this OTLP/HTTP collector (`<endpoint>/v1/traces`); none are exported without it. */
    tracing: { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT },
    /** The Temporal Schedule that runs a retention pass, and what one pass may spend per table. */
    housekeeping: {
      intervalMinutes: e.HOUSEKEEPING_INTERVAL_MINUTES,
      batchRows: e.HOUSEKEEPING_BATCH_ROWS,
      maxRowsPerTable: e.HOUSEKEEPING_MAX_ROWS_PER_TABLE,
      maxSecondsPerTable: e.HOUSEKEEPING_MAX_SECONDS_PER_TABLE,
    },
    /** How long rows are kept (README, "Retention and housekeeping"). */
    retention: {
      outboxDays: e.RETENTION_OUTBOX_DAYS,
      idempotencyHours: e.RETENTION_IDEMPOTENCY_HOURS,
      translationCacheDays: e.RETENTION_TRANSLATION_CACHE_DAYS,
      translationCacheMaxRows: e.RETENTION_TRANSLATION_CACHE_MAX_ROWS,
      unlinkedAudioDays: e.RETENTION_UNLINKED_AUDIO_DAYS,
      encounterDays: e.RETENTION_ENCOUNTER_DAYS,
    },
    /** How long a starting API or worker waits for PostgreSQL and Temporal before it exits non-zero. */
    startupTimeoutSeconds: e.STARTUP_TIMEOUT_SECONDS,
    logLevel: e.LOG_LEVEL,
  };
}
