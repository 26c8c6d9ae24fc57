import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import type { Config } from '../../../src/config.ts';
import { startFakeProvider, type FakeProvider } from '../../../src/model/fake-provider/server.ts';
import { createModelClient } from '../../../src/model/model-client.ts';
import { inProcessOutputModes, type OutputModeMemory } from '../../../src/model/output-modes.ts';
import { appErrorOf } from '../../support/rejection.ts';

/** The deployment's own OpenAI-compatible endpoint, played by the fake with the ways of weaker servers. */

const Translation = z.object({ translation: z.string().min(1), notes: z.array(z.string()) });
const request = { task: 'translate_test', schema: Translation, system: 'Translate.', input: { text: 'break a leg', lang: 'de' }, maxTokens: 200 };

let fake: FakeProvider;
let memory: OutputModeMemory;
const config = (over: Partial<Config['model']> = {}): Config['model'] => ({
  provider: 'openai-compatible',
  apiKey: undefined,
  baseUrl: fake.baseUrl,
  concurrency: { max: null, syncWaitMs: 0 },
  model: 'llama3.2:1b',
  timeoutMs: 2_000,
  maxRetries: 1,
  price: { inputUsdPerMillionTokens: '0.15', outputUsdPerMillionTokens: '0.6' },
  ...over,
});
const client = (over: Partial<Config['model']> = {}) => createModelClient(config(over), { outputModes: memory });

const failure = appErrorOf;

const formats = () => fake.requests.map((r) => r.body.response_format?.type ?? 'text');

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setQuirks({ anonymous: true, reportsNoCost: true });
  fake.setResponder('translate_test', (input) => ({ translation: `[${input.lang}] ${input.text}`, notes: [] }));
  memory = inProcessOutputModes();
});

describe('an OpenAI-compatible endpoint of the deployment', () => {
  it('gets no router members and no key it was not given, and prices the tokens it reports', async () => {
    const result = await client().complete(request);
    expect(result.data.translation).toBe('[de] break a leg');
    expect(result.model).toBe('llama3.2:1b');
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.provider).toBeUndefined();
    expect(sent.body.usage).toBeUndefined();
    expect(sent.body.stream).toBe(false);
    expect(sent.body.model).toBe('llama3.2:1b');
    expect(sent.body.response_format.type).toBe('json_schema');
    // No cost reported: its tokens at the configured prices, as exact decimal text.
    const promptTokens = Math.ceil(JSON.stringify(sent.body.messages).length / 4);
    const completionTokens = Math.ceil(JSON.stringify({ translation: '[de] break a leg', notes: [] }).length / 4);
    expect(result.costUsd).toBe(new Decimal(promptTokens).times('0.15').plus(new Decimal(completionTokens).times('0.6')).div(1_000_000).toFixed());
  });

  it('sends its key when it has one', async () => {
    await client({ apiKey: 'sk-local' }).complete(request);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-local');
  });

  it('charges nothing at prices of 0', async () => {
    const result = await client({ price: { inputUsdPerMillionTokens: '0', outputUsdPerMillionTokens: '0' } }).complete(request);
    expect(result.costUsd).toBe('0');
    expect(client({ price: { inputUsdPerMillionTokens: '0', outputUsdPerMillionTokens: '0' } }).costCeilingUsd(request)).toBe('0');
  });

  it('takes a cost the endpoint does report', async () => {
    fake.setQuirks({ reportsNoCost: false });
    fake.setCost('0.00042');
    expect((await client().complete(request)).costUsd).toBe('0.00042');
  });
});

describe('structured output negotiated, not assumed', () => {
  it('an endpoint that answers 400 to json_schema gets json_object with the schema in the prompt, and every later call starts there', async () => {
    fake.setQuirks({ refusesJsonSchema: true });
    const first = await client().complete(request);
    expect(first.data.translation).toBe('[de] break a leg');
    expect(formats()).toEqual(['json_schema', 'json_object']);
    const system = fake.requests[1]!.body.messages[0].content as string;
    expect(system).toContain('`translate_test`');
    expect(system).toContain('"translation"');
    expect(await memory.recall()).toBe('json_object');

    await client().complete(request);
    expect(formats()).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('llama-cpp-python’s refusal of json_schema, an HTTP 500 naming response_format, is negotiated past at once, not retried as an outage', async () => {
    fake.setQuirks({ refusesJsonSchema: true, refusesAsServerError: true });
    expect((await client().complete(request)).data.translation).toBe('[de] break a leg');
    expect(formats()).toEqual(['json_schema', 'json_object']);
    expect(await memory.recall()).toBe('json_object');
  });

  it('an HTTP 500 that names no validation of response_format is still an outage: retried, and teaches nothing', async () => {
    fake.setMode('fail', { status: 500 });
    expect((await failure(client().complete(request))).code).toBe('service_unavailable');
    expect(formats()).toEqual(['json_schema', 'json_schema']);
    expect(await memory.recall()).toBeNull();
  });

  it('json_object carries the schema, which llama.cpp’s servers hold the answer to (a small model answers {} without it)', async () => {
    fake.setQuirks({ refusesJsonSchema: true, bareJsonObjectIsEmpty: true });
    expect((await client().complete(request)).data.translation).toBe('[de] break a leg');
    expect(formats()).toEqual(['json_schema', 'json_object']);
    expect(fake.requests[1]!.body.response_format.schema).toEqual(fake.requests[0]!.body.response_format.json_schema.schema);
  });

  it('one that refuses json_object as well gets plain text, validated', async () => {
    fake.setQuirks({ refusesJsonSchema: true, refusesJsonObject: true });
    expect((await client().complete(request)).data.translation).toBe('[de] break a leg');
    expect(formats()).toEqual(['json_schema', 'json_object', 'text']);
    expect(await memory.recall()).toBe('text');
  });

  it('a request refused in every mode fails service_unavailable and teaches nothing', async () => {
    fake.setMode('fail', { status: 400 });
    const error = await failure(client().complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(formats()).toEqual(['json_schema', 'json_object', 'text']);
    expect(await memory.recall()).toBeNull();
  });

  it('an answer streamed although not asked for is put back together, its cost included', async () => {
    fake.setQuirks({ streams: true, reportsNoCost: false });
    fake.setCost('0.00012345678901234567890');
    const result = await client().complete(request);
    expect(result.data).toEqual({ translation: '[de] break a leg', notes: [] });
    expect(result.costUsd).toBe('0.00012345678901234567890');
  });

  it.each(['prose', 'fence'] as const)('JSON inside %s is taken out of it', async (wraps) => {
    fake.setQuirks({ wraps });
    expect((await client().complete(request)).data.translation).toBe('[de] break a leg');
    expect(fake.requests).toHaveLength(1);
  });

  it('an answer cut off at the server’s own token limit is rejected as cut_off, without a repair that could not help', async () => {
    fake.setQuirks({ tokenLimit: 3 });
    const error = await failure(client().complete(request));
    expect(error.code).toBe('provider_output_invalid');
    expect(error.extensions.outputProblem).toBe('cut_off');
    expect(fake.requests).toHaveLength(1);
  });

  it('a server that is down fails service_unavailable after its quick retries, and teaches nothing', async () => {
    fake.setQuirks({ down: true });
    const error = await failure(client().complete(request));
    expect(error.code).toBe('service_unavailable');
    expect(fake.requests).toHaveLength(2);
    expect(await memory.recall()).toBeNull();
  });
});

describe('one repair that shows the model its validation errors', () => {
  it('an invalid answer is asked again once with the answer and what was wrong; only the repaired answer’s cost is the call’s', async () => {
    fake.setQuirks({ reportsNoCost: false });
    fake.setResponder('translate_test', (input, { repairing }) => (repairing ? { translation: `[${input.lang}] ${input.text}`, notes: [] } : { notes: 'x' }));
    const result = await client().complete(request);
    expect(result.data.translation).toBe('[de] break a leg');
    expect(fake.requests).toHaveLength(2);
    const messages = fake.requests[1]!.body.messages;
    expect(messages.slice(0, 2)).toEqual(fake.requests[0]!.body.messages);
    expect(messages[2]).toEqual({ role: 'assistant', content: '{"notes":"x"}' });
    expect(messages[3].role).toBe('user');
    expect(messages[3].content).toContain('translation:');
    expect(messages[3].content).toContain('notes:');
    expect(result.costUsd).toBe(fake.requests[1]!.costUsd);
  });

  it('a repair that is still invalid fails provider_output_invalid; no third call', async () => {
    fake.setResponder('translate_test', () => 'not json at all');
    const error = await failure(client().complete(request));
    expect(error.code).toBe('provider_output_invalid');
    expect(error.extensions.outputProblem).toBe('not_json');
    expect(fake.requests).toHaveLength(2);
  });

  it('the caller may forbid the repair (a spent budget)', async () => {
    fake.setResponder('translate_test', () => ({ notes: [] }));
    const error = await failure(client().complete({ ...request, mayRepair: async () => false }));
    expect(error.extensions.outputProblem).toBe('schema_violation');
    expect(fake.requests).toHaveLength(1);
  });
});
