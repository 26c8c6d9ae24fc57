import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.ts';
import { loadConfig } from '../../../src/config.ts';
import { endpointModel } from '../../../src/model/endpoint-model.ts';
import { startFakeProvider, type FakeProvider } from '../../../src/model/fake-provider/server.ts';
import { createProviderHttp } from '../../../src/model/provider-http.ts';
import { appErrorOf } from '../../support/rejection.ts';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const own = (): Config['model'] => loadConfig({ MODEL_BASE_URL: fake.baseUrl, MODEL_TIMEOUT_MS: '2000' }).model;

describe('MODEL_BASE_URL alone', () => {
  it('chooses the deployment’s own endpoint, with no model named yet; MODEL_PROVIDER and MODEL_NAME still choose when set', () => {
    expect(own()).toMatchObject({ provider: 'openai-compatible', model: '' });
    expect(loadConfig({ MODEL_BASE_URL: fake.baseUrl, MODEL_NAME: 'llama3.2:3b' }).model.model).toBe('llama3.2:3b');
    expect(loadConfig({ MODEL_BASE_URL: fake.baseUrl, MODEL_PROVIDER: 'openrouter' }).model.provider).toBe('openrouter');
    expect(loadConfig({}).model.provider).toBe('openrouter');
    expect(() => loadConfig({ MODEL_PROVIDER: 'openai-compatible' })).toThrow(/needs MODEL_BASE_URL/);
  });
});

describe('endpointModel', () => {
  it('is the one model the endpoint lists', async () => {
    fake.setQuirks({ models: ['gemma3:270m'] });
    expect(await endpointModel(createProviderHttp(own()))).toBe('gemma3:270m');
  });

  it('refuses to guess among several, or none, naming what the endpoint serves: service_unavailable, so work waits', async () => {
    fake.setQuirks({ models: ['llama3.2:3b', 'gemma3:270m'] });
    const several = await appErrorOf(endpointModel(createProviderHttp(own())));
    expect(several.code).toBe('service_unavailable');
    expect(several.message).toContain('serves 2 models (llama3.2:3b, gemma3:270m): set MODEL_NAME');
    fake.setQuirks({ models: [] });
    expect((await appErrorOf(endpointModel(createProviderHttp(own())))).message).toContain('lists no model: set MODEL_NAME');
  });

  it('is service_unavailable when the endpoint is down', async () => {
    fake.setQuirks({ down: true });
    expect((await appErrorOf(endpointModel(createProviderHttp(own())))).message).toContain('could not be reached');
  });
});
