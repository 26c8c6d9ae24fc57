import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../../../src/model/fake-provider.ts';
import { parseJsonExact, toPlainDecimal } from '../../../src/model/exact-json.ts';

let fake: FakeProvider;
const origin = () => fake.baseUrl.replace(/\/api\/v1$/, '');
const control = (path: string, body?: string) =>
  fetch(`${origin()}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const complete = (headers: Record<string, string> = { authorization: 'Bearer k' }) =>
  fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: '{"text":"hi"}' }],
      response_format: { type: 'json_schema', json_schema: { name: 't', strict: true, schema: { type: 'object', properties: { text: { type: 'string' } } } } },
    }),
  });

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('fake provider over HTTP', () => {
  it('listens on 127.0.0.1 and answers in OpenRouter shape with the cost as a raw literal', async () => {
    expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const res = await complete();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"cost":0.0012}');
    const body = JSON.parse(text);
    expect(body.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant' } });
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ text: 'hi' });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('refuses a request without a bearer token', async () => {
    const res = await complete({});
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe(401);
  });

  it('is steerable through the /__fake control endpoints', async () => {
    expect((await control('mode', '{"mode":"fail","status":502}')).status).toBe(200);
    expect((await complete()).status).toBe(502);

    await control('mode', '{"mode":"privacy_refusal"}');
    const refusal = await complete();
    expect(refusal.status).toBe(404);
    expect(((await refusal.json()) as any).error.message).toMatch(/No endpoints found matching your data policy/);

    await control('mode', '{"mode":"ok"}');
    expect((await control('cost', '{"cost":0.000000000000000000012345}')).status).toBe(200);
    expect(await (await complete()).text()).toContain('"cost":0.000000000000000000012345}');

    expect((await control('latency', '{"ms":150}')).status).toBe(200);
    const started = Date.now();
    await complete();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    const recorded = (await (await control('requests')).json()) as any[];
    expect(recorded).toHaveLength(4);
    expect(recorded[0].body.model).toBe('m');

    expect((await control('mode', '{"mode":"nonsense"}')).status).toBe(400);
    expect((await control('cost', '{"cost":"1; DROP"}')).status).toBe(400);

    await control('reset', '{}');
    expect(await (await control('requests')).json()).toEqual([]);
    expect(await (await complete()).text()).toContain('"cost":0.0012}');
  });

  it('answers malformed and schema-violating content on request', async () => {
    fake.setMode('malformed');
    const malformed = ((await (await complete()).json()) as any).choices[0].message.content;
    expect(() => JSON.parse(malformed)).toThrow();
    fake.setMode('schema_violation');
    expect(JSON.parse(((await (await complete()).json()) as any).choices[0].message.content)).toEqual({ unexpected: true });
  });
});

describe('exact JSON', () => {
  it('keeps the decimal text of every number', () => {
    expect(parseJsonExact('{"a":0.00012345678901234567890,"b":[1,2.50],"c":1e-7,"d":"x"}')).toEqual({
      a: '0.00012345678901234567890',
      b: ['1', '2.50'],
      c: '0.0000001',
      d: 'x',
    });
    expect(toPlainDecimal('1.5E+3')).toBe('1500');
    expect(() => toPlainDecimal('abc')).toThrow();
  });
});
