import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting the service reads, with its default. The README's table mirrors this file.
 * Unset DATABASE_URL / TEMPORAL_ADDRESS mean "start the embedded one" (only `npm start` does).
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_ORIGIN: z.string().url().optional(),
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.url())),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('language-capture'),
  TEMPORAL_UI_PORT: z.coerce.number().int().default(8233),
  MODEL_PROVIDER: z.enum(['openrouter', 'fake']).default('openrouter'),
  OPENROUTER_API_KEY: z.string().optional(),
  OPENROUTER_BASE_URL: z.string().url().default('https://openrouter.ai/api/v1'),
  OPENROUTER_MODEL: z.string().default('openai/gpt-4o-mini'),
  MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  TTS_BASE_URL: z.string().url().optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().default('gpt-4o-mini-tts'),
  TTS_VOICE: z.string().default('alloy'),
  TTS_COST_PER_MILLION_CHARS_USD: z.string().regex(/^\d+(\.\d+)?$/).default('15'),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_MODEL_MAX: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(256 * 1024),
  SECURE_COOKIES: bool,
  TRUST_PROXY: bool,
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
  const dataDir = path.resolve(e.DATA_DIR);
  // Origins compare exactly, so normalise (no trailing slash, default ports dropped).
  const publicOrigin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : `http://localhost:${e.PORT}`;
  // Locally the page may be opened as localhost or as 127.0.0.1: both are the service's own.
  const localAliases = e.PUBLIC_ORIGIN ? [] : [`http://127.0.0.1:${e.PORT}`];
  return {
    port: e.PORT,
    host: e.HOST,
    publicOrigin,
    allowedOrigins: [publicOrigin, ...localAliases, ...e.ALLOWED_ORIGINS.map((o) => new URL(o).origin)],
    dataDir,
    databaseUrl: e.DATABASE_URL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      uiPort: e.TEMPORAL_UI_PORT,
    },
    model: {
      provider: e.MODEL_PROVIDER,
      apiKey: e.OPENROUTER_API_KEY,
      baseUrl: e.OPENROUTER_BASE_URL,
      model: e.OPENROUTER_MODEL,
      timeoutMs: e.MODEL_TIMEOUT_MS,
      maxRetries: e.MODEL_MAX_RETRIES,
    },
    tts: {
      baseUrl: e.TTS_BASE_URL,
      apiKey: e.TTS_API_KEY,
      model: e.TTS_MODEL,
      voice: e.TTS_VOICE,
      costPerMillionCharsUsd: e.TTS_COST_PER_MILLION_CHARS_USD,
    },
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      modelMax: e.RATE_LIMIT_MODEL_MAX,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    secureCookies: e.SECURE_COOKIES || publicOrigin.startsWith('https://'),
    /** Only behind a proxy that sets X-Forwarded-For; otherwise clients could pick their own address. */
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
  };
}
