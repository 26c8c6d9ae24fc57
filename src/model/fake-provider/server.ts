import http from 'node:http';
import { Decimal } from 'decimal.js';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseJsonExact } from '../exact-json.ts';
import { instructedTask } from '../output-modes.ts';
import type { Responder } from './responder.ts';
import { builtInResponders } from './responders.ts';

/**
 * A fake of OpenRouter's chat completions API for tests and local runs: a real HTTP server, so
 * the production model client is exercised unchanged (headers, timeouts, retries, exact cost
 * text). Tests steer it in-process; a separately started process is steered over /__fake/*.
 */

export type { Responder } from './responder.ts';
export type FakeMode = 'ok' | 'fail' | 'malformed' | 'schema_violation' | 'privacy_refusal';

export interface RecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  at: number;
  /** The `usage.cost` answered, once a completion was answered. */
  costUsd?: string;
  /** How long the fake waited before answering (drawn from the latency range). */
  latencyMs?: number;
}

/** USD per million tokens, as decimal text: a cost that follows what a call carries, like a real provider's. */
export interface TokenPrices {
  prompt: string;
  completion: string;
}

/**
 * Ways of the weaker OpenAI-compatible servers the fake can take on (all off by default and
 * after `reset`), so that the client's handling of each is tried against a real HTTP server.
 */
export interface FakeQuirks {
  /** Answers 400 to `response_format: json_schema`, as servers without structured outputs do. */
  refusesJsonSchema: boolean;
  /** Answers 400 to `response_format: json_object`, as LM Studio does. */
  refusesJsonObject: boolean;
  /** Refuses a response_format as llama-cpp-python's server does: HTTP 500 with the validation error as the message, not 400. */
  refusesAsServerError: boolean;
  /**
   * Answers `{}` to `json_object` without a `schema` member: a small model under llama.cpp's bare
   * JSON grammar (Gemma 3 270M on llama-cpp-python does).
   */
  bareJsonObjectIsEmpty: boolean;
  /** Streams its answer as server-sent events, although asked not to. */
  streams: boolean;
  /** Puts its JSON inside prose, or inside a code fence. */
  wraps: 'prose' | 'fence' | null;
  /** Reports token counts but no `usage.cost`, as local servers do. */
  reportsNoCost: boolean;
  /** Its own answer limit in tokens, below whatever `max_tokens` asks (null: none). */
  tokenLimit: number | null;
  /** Takes requests without an Authorization header, as a local server does. */
  anonymous: boolean;
  /** Drops every connection without answering: a server that is not up. */
  down: boolean;
  /** What `GET /models` lists, as a local server lists the models it serves. */
  models: string[];
}

const NO_QUIRKS: FakeQuirks = {
  refusesJsonSchema: false,
  refusesJsonObject: false,
  refusesAsServerError: false,
  bareJsonObjectIsEmpty: false,
  streams: false,
  wraps: null,
  reportsNoCost: false,
  tokenLimit: null,
  anonymous: false,
  down: false,
  models: ['fake/model'],
};

export interface FakeProvider {
  /** What OPENROUTER_BASE_URL is set to, e.g. http://127.0.0.1:43123/api/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  /** 'fail' answers `opts.status ?? 500`. */
  setMode(mode: FakeMode, opts?: { status?: number }): void;
  setLatency(ms: number): void;
  /** Each answer waits a random time between `minMs` and `maxMs` (uniform), as a real provider does. */
  setLatencyRange(minMs: number, maxMs: number): void;
  /** Fails every request (HTTP `status`, default 503) for the next `ms`, then answers as before. */
  failFor(ms: number, opts?: { status?: number }): void;
  /** Counts since the last reset: requests received, answers by task, failures by status. */
  stats(): FakeStats;
  /** Emitted verbatim as the `usage.cost` number literal. */
  setCost(costUsd: string): void;
  /** Prices by token counts instead of the fixed cost (null: back to the fixed cost). */
  setTokenPrices(prices: TokenPrices | null): void;
  setResponder(task: string, fn: Responder): void;
  /** Takes on these ways of a weaker server (the others unchanged) until `reset`. */
  setQuirks(quirks: Partial<FakeQuirks>): void;
  reset(): void;
  close(): Promise<void>;
}

export interface FakeStats {
  received: number;
  answered: Record<string, number>;
  failed: Record<string, number>;
  /** Chat completions being answered now, and the most ever at once: what MODEL_MAX_CONCURRENCY bounds. */
  inFlight: number;
  mostInFlight: number;
}

const MODES: readonly FakeMode[] = ['ok', 'fail', 'malformed', 'schema_violation', 'privacy_refusal'];
const DEFAULT_COST = '0.0012';
const FAKE_CHARS_PER_TOKEN = 4;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const PRIVACY_REFUSAL_BODY =
  '{"error":{"code":404,"message":"No endpoints found matching your data policy (Zero data retention). Configure: https://openrouter.ai/settings/privacy"}}';

export async function startFakeProvider(options: { port?: number; host?: string } = {}): Promise<FakeProvider> {
  const host = options.host ?? '127.0.0.1';
  let mode: FakeMode = 'ok';
  let failStatus = 500;
  let latency = { minMs: 0, maxMs: 0 };
  let failWindow = { until: 0, status: 503 };
  let inFlight = 0;
  let counts: Omit<FakeStats, 'inFlight'> = { received: 0, answered: {}, failed: {}, mostInFlight: 0 };
  let cost = DEFAULT_COST;
  let tokenPrices: TokenPrices | null = null;
  let generation = 0;
  let quirks: FakeQuirks = { ...NO_QUIRKS };
  const overrides = new Map<string, Responder>();

  const fake: FakeProvider = {
    baseUrl: '',
    requests: [],
    setMode(next, opts) {
      if (!MODES.includes(next)) throw new Error(`Unknown fake mode: ${next}`);
      mode = next;
      failStatus = opts?.status ?? 500;
    },
    setLatency(ms) {
      fake.setLatencyRange(ms, ms);
    },
    setLatencyRange(minMs, maxMs) {
      if (!(Number.isFinite(minMs) && Number.isFinite(maxMs))) throw new Error('Latency must be a number of milliseconds');
      const min = Math.max(0, minMs);
      latency = { minMs: min, maxMs: Math.max(min, maxMs) };
    },
    failFor(ms, opts) {
      if (!Number.isFinite(ms)) throw new Error('The failure window must be a number of milliseconds');
      const status = opts?.status ?? 503;
      if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`Not an HTTP error status: ${status}`);
      failWindow = { until: Date.now() + Math.max(0, ms), status };
    },
    stats: () => ({ ...structuredClone(counts), inFlight }),
    setCost(text) {
      if (!JSON_NUMBER.test(text)) throw new Error(`Not a JSON number literal: ${text}`);
      cost = text;
    },
    setTokenPrices(prices) {
      if (prices && ![prices.prompt, prices.completion].every((p) => JSON_NUMBER.test(p))) throw new Error('Token prices must be decimal text');
      tokenPrices = prices;
    },
    setResponder(task, fn) {
      overrides.set(task, fn);
    },
    setQuirks(more) {
      quirks = { ...quirks, ...more };
    },
    reset() {
      quirks = { ...NO_QUIRKS };
      mode = 'ok';
      failStatus = 500;
      latency = { minMs: 0, maxMs: 0 };
      failWindow = { until: 0, status: 503 };
      // A reset mid-call keeps counting the calls still being answered.
      counts = { received: 0, answered: {}, failed: {}, mostInFlight: inFlight };
      cost = DEFAULT_COST;
      tokenPrices = null;
      fake.requests.length = 0;
      overrides.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };

  async function chat(req: http.IncomingMessage, res: http.ServerResponse, body: any): Promise<void> {
    const recorded: RecordedRequest = { path: req.url ?? '', headers: { ...req.headers }, body, at: Date.now() };
    fake.requests.push(recorded);
    if (quirks.down) {
      req.socket.destroy();
      return;
    }
    if (!quirks.anonymous && !/^Bearer \S+/.test(req.headers.authorization ?? '')) {
      return send(res, 401, '{"error":{"code":401,"message":"No auth credentials found"}}');
    }
    counts.received++;
    const waitMs = latency.minMs + Math.random() * (latency.maxMs - latency.minMs);
    recorded.latencyMs = waitMs;
    if (waitMs > 0) await sleep(waitMs);
    if (mode === 'privacy_refusal') return send(res, 404, PRIVACY_REFUSAL_BODY);
    // The window is judged when the answer is due, as with a provider that goes down mid-request.
    const failing = Date.now() < failWindow.until ? failWindow.status : mode === 'fail' ? failStatus : null;
    if (failing !== null) {
      counts.failed[failing] = (counts.failed[failing] ?? 0) + 1;
      const message = failing === 429 ? 'Rate limit exceeded' : `Fake provider failure (HTTP ${failing})`;
      return send(res, failing, JSON.stringify({ error: { code: failing, message } }));
    }

    const model = typeof body?.model === 'string' ? body.model : 'fake/model';
    const format = body?.response_format?.type;
    if ((format === 'json_schema' && quirks.refusesJsonSchema) || (format === 'json_object' && quirks.refusesJsonObject)) {
      if (quirks.refusesAsServerError)
        return send(res, 500, JSON.stringify({ error: { message: llamaCppPythonRefusal(format), type: 'internal_server_error' } }));
      return send(res, 400, JSON.stringify({ error: { code: 400, message: `response_format.type ${format} is not supported` } }));
    }
    // The task: the structured output's name, or the one the system message names (weaker output modes).
    const system = body?.messages?.find((m: any) => m?.role === 'system')?.content;
    const jsonSchema = format === 'json_schema' ? body.response_format.json_schema : instructedTask(typeof system === 'string' ? system : '');
    const taskName = format === 'json_schema' ? jsonSchema?.name : jsonSchema?.task;
    if (typeof taskName !== 'string') {
      return send(res, 400, '{"error":{"code":400,"message":"response_format.json_schema is required"}}');
    }
    let content: string;
    if (mode === 'malformed') content = '{"translation": "unterminated';
    else if (quirks.bareJsonObjectIsEmpty && format === 'json_object' && body.response_format.schema === undefined) content = '{}';
    else if (mode === 'schema_violation') content = '{"unexpected": true}';
    else {
      const task: string = taskName;
      const userText = body.messages?.find((m: any) => m?.role === 'user')?.content;
      const input = parseOrKeep(userText);
      const responder = overrides.get(task) ?? builtInResponders[task];
      // A repair: the model's earlier answer and the note on it follow the first two messages.
      const repairing = Array.isArray(body.messages) && body.messages.length > 2;
      try {
        const answer = responder
          ? await responder(input, { model, task, schema: jsonSchema.schema, repairing })
          : instanceOf(jsonSchema.schema, input, jsonSchema.schema);
        content = typeof answer === 'string' ? answer : JSON.stringify(answer);
        if (quirks.wraps === 'fence') content = `Here is the JSON:\n\n\`\`\`json\n${content}\n\`\`\`\n`;
        if (quirks.wraps === 'prose') content = `Sure! ${content} I hope this helps.`;
      } catch (error) {
        const message = `Fake responder for ${task} threw: ${(error as Error).message}`;
        return send(res, 500, JSON.stringify({ error: { code: 500, message } }));
      }
    }

    // Like a real provider: about 4 characters a token, and an answer longer than `max_tokens`
    // is cut off there and reported with finish_reason `length`.
    const promptTokens = Math.ceil(JSON.stringify(body.messages ?? '').length / FAKE_CHARS_PER_TOKEN);
    const asked = Number.isInteger(body.max_tokens) && body.max_tokens > 0 ? body.max_tokens : Infinity;
    const maxTokens = Math.min(asked, quirks.tokenLimit ?? Infinity);
    const cutOff = Math.ceil(content.length / FAKE_CHARS_PER_TOKEN) > maxTokens;
    if (cutOff) content = content.slice(0, maxTokens * FAKE_CHARS_PER_TOKEN);
    const completionTokens = Math.ceil(content.length / FAKE_CHARS_PER_TOKEN);
    const head = JSON.stringify({
      id: `gen-fake-${Date.now()}-${++generation}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      provider: 'Fake',
      choices: [{ index: 0, finish_reason: cutOff ? 'length' : 'stop', message: { role: 'assistant', content } }],
    });
    recorded.costUsd = tokenPrices
      ? new Decimal(tokenPrices.prompt).times(promptTokens).plus(new Decimal(tokenPrices.completion).times(completionTokens)).div(1_000_000).toFixed()
      : cost;
    // The cost is spliced in as text so it reaches the client exactly as configured.
    counts.answered[taskName] = (counts.answered[taskName] ?? 0) + 1;
    const usage =
      `"usage":{"prompt_tokens":${promptTokens},"completion_tokens":${completionTokens},` +
      `"total_tokens":${promptTokens + completionTokens}${quirks.reportsNoCost ? '' : `,"cost":${recorded.costUsd}`}}`;
    if (quirks.reportsNoCost) delete recorded.costUsd;
    if (quirks.streams) return sendStream(res, head, usage);
    send(res, 200, `${head.slice(0, -1)},${usage}}`);
  }

  function control(action: string, method: string, body: any, res: http.ServerResponse): void {
    try {
      if (method === 'GET' && action === 'requests') return send(res, 200, JSON.stringify(fake.requests));
      if (method === 'GET' && action === 'stats') return send(res, 200, JSON.stringify(fake.stats()));
      if (method !== 'POST') return send(res, 405, '{"error":"method not allowed"}');
      const status = body?.status === undefined ? {} : { status: Number(body.status) };
      if (action === 'mode') fake.setMode(body?.mode, status);
      else if (action === 'latency' && body?.minMs !== undefined) fake.setLatencyRange(Number(body.minMs), Number(body.maxMs ?? body.minMs));
      else if (action === 'latency') fake.setLatency(Number(body?.ms ?? 0));
      else if (action === 'fail-for') fake.failFor(Number(body?.ms), status);
      else if (action === 'cost') fake.setCost(String(body?.cost));
      else if (action === 'quirks') fake.setQuirks(quirksFrom(body));
      else if (action === 'reset') fake.reset();
      else return send(res, 404, '{"error":"unknown control endpoint"}');
      send(res, 200, JSON.stringify({ ok: true, mode, latencyMs: latency.minMs, latencyMaxMs: latency.maxMs, failingUntil: failWindow.until, cost }));
    } catch (error) {
      send(res, 400, JSON.stringify({ error: (error as Error).message }));
    }
  }

  // Every failure is answered (500) inside `answer`.
  const server = http.createServer((req, res) => void answer(req, res));
  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    try {
      const raw = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (path.startsWith('/__fake/')) {
        // Exact parsing keeps a cost sent as a JSON number verbatim (other numbers become text).
        return control(path.slice('/__fake/'.length), req.method ?? 'GET', raw ? parseJsonExact(raw) : {}, res);
      }
      if (req.method === 'GET' && path === '/api/v1/models') {
        if (quirks.down) return req.socket.destroy();
        return send(res, 200, JSON.stringify({ object: 'list', data: quirks.models.map((id) => ({ id, object: 'model', owned_by: 'fake' })) }));
      }
      if (req.method === 'POST' && path === '/api/v1/chat/completions') {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, 400, '{"error":{"code":400,"message":"Request body is not JSON"}}');
        }
        counts.mostInFlight = Math.max(counts.mostInFlight, ++inFlight);
        try {
          return await chat(req, res, body);
        } finally {
          inFlight--;
        }
      }
      send(res, 404, '{"error":{"code":404,"message":"Not found"}}');
    } catch (error) {
      send(res, 500, JSON.stringify({ error: { code: 500, message: (error as Error).message } }));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://${host}:${port}/api/v1`;
  return fake;
}

/** llama-cpp-python's message for a response_format its request schema does not take (its server answers it with HTTP 500). */
const llamaCppPythonRefusal = (format: string) =>
  `1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': "Input should be 'text' or 'json_object'", ` +
  `'input': '${format}'}\n\n  POST /v1/chat/completions`;

/** The quirks named in a control request's body, each checked (anything else is refused). */
function quirksFrom(body: unknown): Partial<FakeQuirks> {
  const out: Partial<FakeQuirks> = {};
  for (const [key, value] of Object.entries(isRecord(body) ? body : {})) {
    if (!(key in NO_QUIRKS)) throw new Error(`Unknown quirk: ${key}`);
    if (key === 'wraps' && (value === null || value === 'prose' || value === 'fence')) out.wraps = value;
    else if (key === 'tokenLimit' && (value === null || Number.isInteger(Number(value)))) out.tokenLimit = value === null ? null : Number(value);
    else if (typeof value === 'boolean' && key !== 'wraps' && key !== 'tokenLimit') (out as Record<string, boolean>)[key] = value;
    else throw new Error(`Not a value for ${key}`);
  }
  return out;
}

function send(res: http.ServerResponse, status: number, body: string): void {
  // The client may have given up (timeout) while the fake was sleeping.
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The answer as a server that streams sends it: a chunk per few characters of content, then one
 * with the finish reason and the usage (spliced in as text, so a cost stays exact), then [DONE].
 */
function sendStream(res: http.ServerResponse, headText: string, usage: string): void {
  if (res.destroyed || res.headersSent) return;
  const answer = JSON.parse(headText);
  const choice = answer.choices[0];
  const content: string = choice.message.content;
  const base = { id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model };
  const pieces = content.match(/[\s\S]{1,16}/g) ?? [];
  const events = pieces.map((piece, i) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content: piece } : { content: piece } }] }),
  );
  const last = JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }] });
  events.push(`${last.slice(0, -1)},${usage}}`);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(events.map((e) => `data: ${e}\n\n`).join('') + 'data: [DONE]\n\n');
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseOrKeep(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A small valid instance of a JSON schema. Values are taken from the input at the same place
 * when their type fits (so ids and texts of a batch come back), and arrays follow the length of
 * the matching input array, else have `minItems` entries.
 */
function instanceOf(schema: any, input: unknown, root: any, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 20) return null;
  if (typeof schema.$ref === 'string') return instanceOf(resolveRef(root, schema.$ref), input, root, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.includes(input) ? input : schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(options) && options.length > 0) {
    const preferred = options.find((o: any) => o?.type !== 'null') ?? options[0];
    return instanceOf(preferred, input, root, depth + 1);
  }
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : types[0]);
  const from = isRecord(input) ? input : {};
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, instanceOf(sub, from[key], root, depth + 1)]));
    case 'array': {
      const source = Array.isArray(input) ? input : [];
      const length = Math.min(Math.max(source.length, schema.minItems ?? 0), schema.maxItems ?? Infinity);
      return Array.from({ length }, (_, i) => instanceOf(schema.items, source[i], root, depth + 1));
    }
    case 'string':
      return typeof input === 'string' ? input : fakeString(schema);
    case 'integer':
    case 'number':
      if (typeof input === 'number') return input;
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
      return 0;
    case 'boolean':
      return typeof input === 'boolean' ? input : false;
    case 'null':
      return null;
    default:
      return input ?? 'fake';
  }
}

function fakeString(schema: any): string {
  if (schema.format === 'date-time') return new Date(0).toISOString();
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'email') return 'fake@example.com';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const text = 'fake'.padEnd(min, 'e');
  return typeof schema.maxLength === 'number' ? text.slice(0, schema.maxLength) : text;
}

function resolveRef(root: any, ref: string): unknown {
  if (ref === '#') return root;
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: any, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], root);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// `node --import tsx src/model/fake-provider/server.ts [port]` runs it standalone, steerable over /__fake/*:
// POST mode {mode, status?}, latency {ms} or {minMs, maxMs}, fail-for {ms, status?}, cost {cost},
// quirks {refusesJsonSchema?, streams?, wraps?, …}, reset; GET requests, stats.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakeProvider({ port: Number(process.argv[2] ?? process.env.FAKE_PROVIDER_PORT ?? 0) });
  console.log(`fake model provider listening; OPENROUTER_BASE_URL=${fake.baseUrl}`);
}
