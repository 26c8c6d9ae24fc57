import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../src/domain/problems.ts';
import { createModelClient } from '../../../src/model/model-client.ts';

/** A provider that answers every request with this one chat completion choice. */
const answering =
  (choice: object): typeof fetch =>
  async () =>
    new Response(JSON.stringify({ id: 'gen-1', model: 'm', choices: [choice], usage: { cost: 0.001 } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });

const complete = (choice: object) =>
  createModelClient(
    {
      provider: 'openrouter',
      apiKey: 'k',
      baseUrl: 'http://provider.test/api/v1',
      model: 'm',
      timeoutMs: 1_000,
      maxRetries: 0,
      concurrency: { max: null, syncWaitMs: 0 },
      price: { inputUsdPerMillionTokens: '0.15', outputUsdPerMillionTokens: '0.6' },
    },
    { fetch: answering(choice) },
  )
    .complete({ task: 't', schema: z.object({ translation: z.string() }), system: 's', input: {}, maxTokens: 100 })
    .then(
      () => expect.fail('expected a rejection'),
      (error: unknown) => error as AppError,
    );

describe('provider_output_invalid says what was wrong with the output', () => {
  it.each([
    ['cut_off', { finish_reason: 'length', message: { role: 'assistant', content: '{"translation": "Il était une' } }],
    ['refused', { finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }],
    ['no_content', { finish_reason: 'stop', message: { role: 'assistant', content: '' } }],
    ['not_json', { finish_reason: 'stop', message: { role: 'assistant', content: 'Voilà' } }],
    ['schema_violation', { finish_reason: 'stop', message: { role: 'assistant', content: '{"other": 1}' } }],
  ])('%s', async (problem, choice) => {
    const error = await complete(choice);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('provider_output_invalid');
    expect(error.extensions.outputProblem).toBe(problem);
  });
});
