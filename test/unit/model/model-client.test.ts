import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Config } from '../../../src/config.ts';
import { startFakeProvider, type FakeProvider } from '../../../src/model/fake-provider/server.ts';
import { fakeTranslate } from '../../../src/model/fake-provider/responder.ts';
import { createModelClient, strictJsonSchema, type ModelClientLogger } from '../../../src/model/model-client.ts';
import { costCeilingUsd, inputTokenBound } from '../../../src/domain/model-budget.ts';
import { counterValue as metric } from '../../support/metrics.ts';
import { appErrorOf } from '../../support/rejection.ts';
import type { ProviderBreaker } from '../../../src/services/provider-breaker.ts';

const Translation = z.object({ translation: z.string(), notes: z.array(z.string()) });
const request = { task: 'translate_test', schema: Translation, system: 'Translate.', input: { text: 'break a leg', lang: 'de' }, maxTokens: 200 };

let fake: FakeProvider;
const config = (over: Partial<Config['model']> = {}): Config['model'] => ({
  provider: 'openrouter',
  apiKey: 'sk-test-secret',
  baseUrl: fake.baseUrl,
  concurrency: { max: null, syncWaitMs: 0 },
  model: 'test/model',
  timeoutMs: 2_000,
  maxRetries: 2,
  price: { inputUsdPerMillionTokens: '0.15', outputUsdPerMillionTokens: '0.6' },
  ...over,
});

const failure = appErrorOf;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('model client against the fake provider', () => {
  it('returns validated data, the exact cost text and sends the privacy policy', async () => {
    fake.setCost('0.00012345678901234567890123');
    fake.setResponder('translate_test', (input) => ({ translation: fakeTranslate(input.text, input.lang), notes: ['idiom'] }));
    const result = await createModelClient(config()).complete(request);

    expect(result.data).toEqual({ translation: '[de] break a leg', notes: ['idiom'] });
    expect(result.costUsd).toBe('0.00012345678901234567890123');
    expect(result.model).toBe('test/model');
    expect(result.generationId).toMatch(/^gen-/);

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/api/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-secret');
    expect(sent.body.provider).toEqual({ data_collection: 'deny', zdr: true, require_parameters: true });
    expect(sent.body.usage).toEqual({ include: true });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'Translate.' },
      { role: 'user', content: JSON.stringify(request.input) },
    ]);
    expect(sent.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'translate_test',
        strict: true,
        schema: {
          type: 'object',
          properties: { translation: { type: 'string' }, notes: { type: 'array', items: { type: 'string' } } },
          required: ['translation', 'notes'],
          additionalProperties: false,
        },
      },
    });
  });

  it('normalises exponent costs and reports a missing cost as 0', async () => {
    fake.setCost('1.5e-7');
    expect((await createModelClient(config()).complete(request)).costUsd).toBe('0.00000015');
    fake.setCost('0');
    expect((await createModelClient(config()).complete(request)).costUsd).toBe('0');
  });

  it('answers tasks without a responder with a generic instance shaped by the input', async () => {
    const schema = z.object({
      items: z.array(z.object({ id: z.string(), text: z.string(), lang: z.enum(['en', 'de']) })).min(1),
      done: z.boolean(),
    });
    const input = {
      items: [
        { id: 'a', text: 'one' },
        { id: 'b', text: 'two' },
      ],
    };
    const { data } = await createModelClient(config()).complete({ task: 'generic_task', schema, system: 's', input, maxTokens: 500 });
    expect(data).toEqual({
      items: [
        { id: 'a', text: 'one', lang: 'en' },
        { id: 'b', text: 'two', lang: 'en' },
      ],
      done: false,
    });
  });

  it('rejects an answer that is not JSON as provider_output_invalid, after one repair', async () => {
    fake.setMode('malformed');
    const error = await failure(createModelClient(config()).complete(request));
    expect(error.code).toBe('provider_output_invalid');
    expect(error.status).toBe(502);
    expect(fake.requests).toHaveLength(2);
  });

  it('rejects JSON that violates the schema, naming paths but not content', async () => {
    fake.setMode('schema_violation');
    const error = await failure(createModelClient(config()).complete(request));
    expect(error.code).toBe('provider_output_invalid');
    expect(error.message).toContain('translation');
    expect(error.message).not.toContain('unexpected');
    expect(fake.requests).toHaveLength(2);
  });

  it('maps a data-policy refusal to privacy_routing_unavailable without retrying', async () => {
    fake.setMode('privacy_refusal');
    const error = await failure(createModelClient(config()).complete(request));
    expect(error.code).toBe('privacy_routing_unavailable');
    expect(error.status).toBe(503);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([500, 503, 429])('retries HTTP %i maxRetries times, then service_unavailable', async (status) => {
    fake.setMode('fail', { status });
    const error = await failure(createModelClient(config({ maxRetries: 2 })).complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(fake.requests).toHaveLength(3);
  });

  it('asks once when its call is the breaker’s probe: a provider still down hears one request, not its quick retries', async () => {
    fake.setMode('fail', { status: 503 });
    const outcomes: string[] = [];
    const probingBreaker: ProviderBreaker = {
      admit: async () => true,
      refuseWhileOpen: async () => {},
      probeUnused: async () => {},
      admitWaiting: async () => true,
      succeeded: async () => void outcomes.push('succeeded'),
      failed: async () => void outcomes.push('failed'),
    };
    const client = createModelClient(config({ maxRetries: 2 }), { breaker: probingBreaker });
    expect((await failure(client.complete(request))).code).toBe('service_unavailable');
    expect(fake.requests).toHaveLength(1);
    expect(outcomes).toEqual(['failed']);
  });

  it.each([400, 401, 402, 403])('does not retry HTTP %i', async (status) => {
    fake.setMode('fail', { status });
    const error = await failure(createModelClient(config()).complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(fake.requests).toHaveLength(1);
  });

  it('recovers when a retry succeeds', async () => {
    fake.setMode('fail', { status: 502 });
    setTimeout(() => fake.setMode('ok'), 50);
    const result = await createModelClient(config()).complete(request);
    expect(result.data).toEqual({ translation: 'fake', notes: [] });
    expect(fake.requests).toHaveLength(2);
  });

  it('times out a slow provider per attempt and ends with service_unavailable', async () => {
    // Each attempt's end is read from the client's own log, not the clock: an attempt that waited for the
    // provider's answer would log success (or the call would succeed), one cut short logs a timeout.
    fake.setLatency(400);
    const ends: unknown[] = [];
    const logger: ModelClientLogger = { warn: (obj) => ends.push(obj), debug: (obj) => ends.push(obj) };
    const error = await failure(createModelClient(config({ timeoutMs: 100, maxRetries: 1 }), { logger }).complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toContain('100 ms');
    expect(fake.requests).toHaveLength(2);
    expect(ends).toEqual([expect.objectContaining({ attempt: 1, reason: 'timeout' }), expect.objectContaining({ attempt: 2, reason: 'timeout' })]);
  });

  it('stops at once when the caller aborts', async () => {
    fake.setLatency(400);
    const controller = new AbortController();
    const reason = new Error('cancelled by caller');
    setTimeout(() => controller.abort(reason), 50);
    await expect(createModelClient(config()).complete({ ...request, signal: controller.signal })).rejects.toBe(reason);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses to run without an API key and makes no request', async () => {
    const error = await failure(createModelClient(config({ apiKey: undefined })).complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toContain('OPENROUTER_API_KEY');
    expect(fake.requests).toHaveLength(0);
  });

  it('never logs user content or the API key', async () => {
    const lines: string[] = [];
    const logger: ModelClientLogger = {
      warn: (obj, msg) => lines.push(JSON.stringify([obj, msg])),
      debug: (obj, msg) => lines.push(JSON.stringify([obj, msg])),
    };
    await createModelClient(config(), { logger }).complete(request);
    fake.setMode('schema_violation');
    await failure(createModelClient(config(), { logger }).complete(request));
    fake.setMode('fail', { status: 500 });
    await failure(createModelClient(config({ maxRetries: 0 }), { logger }).complete(request));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const all = lines.join('\n');
    for (const secret of ['break a leg', 'sk-test-secret', 'Translate.', 'unexpected']) expect(all).not.toContain(secret);
  });
});

describe('what a call may cost', () => {
  it('sends max_tokens, and the cost ceiling prices the very requests sent, a repair included, at most one token per byte', async () => {
    const client = createModelClient(config());
    const ceiling = client.costCeilingUsd(request);
    fake.setResponder('translate_test', (_input, { repairing }) => ({ translation: 'x'.repeat(repairing ? 10 : 700), notes: 'not a list' }));
    await failure(client.complete(request));
    expect(fake.requests).toHaveLength(2);
    for (const sent of fake.requests) {
      expect(sent.body.max_tokens).toBe(200);
      // The model's own earlier answer comes back as at most the max_tokens it was made within; the rest at most a token a byte.
      const earlier = sent.body.messages.find((m: { role: string }) => m.role === 'assistant')?.content ?? '';
      const input = inputTokenBound(Buffer.byteLength(JSON.stringify(sent.body)) - Buffer.byteLength(earlier)) + (earlier ? 200 : 0);
      expect(Number(ceiling)).toBeGreaterThanOrEqual(Number(costCeilingUsd({ input, output: 200 }, config().price)));
    }
  });

  it('treats an answer cut off at max_tokens as provider_output_invalid (finish_reason length)', async () => {
    fake.setResponder('translate_test', () => ({ translation: 'x'.repeat(2_000), notes: [] }));
    const error = await failure(createModelClient(config()).complete({ ...request, maxTokens: 50 }));
    expect(error.code).toBe('provider_output_invalid');
    expect(error.message).toContain('cut off');
    expect(fake.requests).toHaveLength(1);
  });

  it('knows its longest call: the timeout of every attempt and the waits between them (a repair and refused output modes within it)', () => {
    expect(createModelClient(config({ timeoutMs: 60_000, maxRetries: 2 })).longestCallMs).toBe(3 * 60_000 + 2 * 5_000);
    expect(createModelClient(config({ timeoutMs: 3_000, maxRetries: 0 })).longestCallMs).toBe(3_000);
  });
});

describe('provider spend metrics and logs', () => {
  it('count calls by task and outcome, and the cost the provider reported', async () => {
    const task = 'metrics_task';
    const ok = await metric('lcs_model_calls_total', { task, outcome: 'ok' });
    const cost = await metric('lcs_provider_cost_usd_total', { task });
    fake.setCost('0.0025');
    await createModelClient(config()).complete({ ...request, task });
    fake.setMode('privacy_refusal');
    await failure(createModelClient(config()).complete({ ...request, task }));
    expect(await metric('lcs_model_calls_total', { task, outcome: 'ok' })).toBe(ok + 1);
    expect(await metric('lcs_model_calls_total', { task, outcome: 'privacy_routing_unavailable' })).toBeGreaterThanOrEqual(1);
    expect(await metric('lcs_provider_cost_usd_total', { task })).toBeCloseTo(cost + 0.0025, 10);
  });

  it('count a rejected answer as spend nobody paid for, with a warn line that carries no user text', async () => {
    const task = 'rejected_task';
    const lines: [object, string | undefined][] = [];
    const logger: ModelClientLogger = { warn: (obj, msg) => lines.push([obj, msg]), debug: () => {} };
    fake.setCost('0.004');
    fake.setMode('schema_violation');
    await failure(createModelClient(config(), { logger }).complete({ ...request, task }));
    // The answer and its repair, both rejected.
    expect(await metric('lcs_provider_unbilled_calls_total', { task, reason: 'invalid_output' })).toBe(2);
    expect(await metric('lcs_provider_unbilled_cost_usd_total', { task, reason: 'invalid_output' })).toBeCloseTo(0.008, 10);
    expect(lines).toContainEqual([{ task, outcome: 'invalid_output', costUsd: '0.004' }, 'provider spend not billed']);
    expect(JSON.stringify(lines)).not.toContain('break a leg');
  });
});

describe('strictJsonSchema', () => {
  it('closes every object and requires every property, dropping keywords strict mode rejects', () => {
    const schema = z.object({
      a: z.string().min(1).max(5).optional(),
      b: z.object({ c: z.number().nullable() }),
      r: z.record(z.string(), z.number()),
    });
    expect(strictJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: { c: { type: ['number', 'null'] } }, required: ['c'], additionalProperties: false },
        r: { type: 'object', additionalProperties: { type: 'number' } },
      },
      required: ['a', 'b', 'r'],
      additionalProperties: false,
    });
  });
});
