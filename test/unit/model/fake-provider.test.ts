import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../../../src/model/fake-provider/server.ts';
import { parseJsonExact, toPlainDecimal } from '../../../src/model/exact-json.ts';

let fake: FakeProvider;
const origin = () => fake.baseUrl.replace(/\/api\/v1$/, '');
const control = (path: string, body?: string) =>
  fetch(`${origin()}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const complete = (headers: Record<string, string> = { authorization: 'Bearer k' }, extra: Record<string, unknown> = {}) =>
  fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: '{"text":"hi"}' }],
      response_format: { type: 'json_schema', json_schema: { name: 't', strict: true, schema: { type: 'object', properties: { text: { type: 'string' } } } } },
      ...extra,
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

  it('keeps to max_tokens like a provider: a longer answer is cut off with finish_reason length', async () => {
    fake.setResponder('t', () => ({ text: 'y'.repeat(400) }));
    const cut: any = await (await complete(undefined, { max_tokens: 10 })).json();
    expect(cut.choices[0].finish_reason).toBe('length');
    expect(cut.choices[0].message.content).toHaveLength(40);
    expect(cut.usage.completion_tokens).toBe(10);
    const whole: any = await (await complete(undefined, { max_tokens: 500 })).json();
    expect(whole.choices[0].finish_reason).toBe('stop');
    expect(whole.usage.completion_tokens).toBeLessThanOrEqual(500);
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

  it('prices by tokens when told to, exactly, and records the cost of each answer', async () => {
    fake.setTokenPrices({ prompt: '0.15', completion: '0.6' });
    const body = JSON.parse(await (await complete()).text());
    const expected = ((body.usage.prompt_tokens * 15 + body.usage.completion_tokens * 60) / 100_000_000).toString();
    expect(String(body.usage.cost)).toBe(expected);
    expect(fake.requests.at(-1)!.costUsd).toBe(expected);
    fake.setTokenPrices(null);
    await complete();
    expect(fake.requests.at(-1)!.costUsd).toBe('0.0012');
  });

  it('waits a random time within a latency range, per request', async () => {
    expect((await control('latency', '{"minMs":60,"maxMs":160}')).status).toBe(200);
    const waits = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const started = performance.now();
        expect((await complete()).status).toBe(200);
        return performance.now() - started;
      }),
    );
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(55);
    // The drawn waits, not the measured ones: a loaded machine's event loop blurs those.
    const drawn = fake.requests.slice(-8).map((r) => r.latencyMs!);
    for (const ms of drawn) expect(ms).toSatisfy((n: number) => n >= 60 && n <= 160);
    // Eight uniform draws from a 100 ms range do not all land within 5 ms of each other.
    expect(Math.max(...drawn) - Math.min(...drawn)).toBeGreaterThan(5);
    expect((await control('latency', '{"minMs":"x"}')).status).toBe(400);
  });

  it('fails for a time window only, then answers again, and counts what it did', async () => {
    expect((await control('fail-for', '{"ms":300,"status":502}')).status).toBe(200);
    expect((await complete()).status).toBe(502);
    expect((await complete()).status).toBe(502);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await complete()).status).toBe(200);
    fake.failFor(10_000);
    expect((await complete()).status).toBe(503);

    const stats = await (await control('stats')).json();
    expect(stats).toEqual({ received: 4, answered: { t: 1 }, failed: { 502: 2, 503: 1 }, inFlight: 0, mostInFlight: 1 });
    expect((await control('fail-for', '{"ms":100,"status":200}')).status).toBe(400);
    fake.reset();
    expect((await complete()).status).toBe(200);
    expect(fake.stats()).toEqual({ received: 1, answered: { t: 1 }, failed: {}, inFlight: 0, mostInFlight: 1 });
  });

  it('counts the completions it is answering at once, and the most ever (what MODEL_MAX_CONCURRENCY bounds)', async () => {
    fake.setLatency(500);
    const three = Promise.all([complete(), complete(), complete()]);
    await vi.waitFor(() => expect(fake.stats().inFlight).toBe(3));
    await three;
    expect(fake.stats()).toMatchObject({ inFlight: 0, mostInFlight: 3 });
    fake.reset();
    expect(fake.stats()).toMatchObject({ inFlight: 0, mostInFlight: 0 });
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
