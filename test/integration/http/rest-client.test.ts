import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components, operations } from '../../../clients/rest/schema.d.ts';
import { createRestClient } from '../../../clients/rest/client.ts';
import { restClientTypes, schemaFile } from '../../../clients/rest/generate.ts';
import { SUPPORTED_LANGUAGES, type LanguageTag } from '../../../src/domain/languages.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { rawHttp } from '../../support/api.ts';

let stack: Stack;
let types: string;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  types = await restClientTypes((await rawHttp(stack, 'GET', '/api/openapi.json')).body);
});
afterAll(async () => {
  await stack?.close();
});

const union = (values: readonly string[]) => values.map((value) => `"${value}"`).join(' | ');
const languages = union(SUPPORTED_LANGUAGES.map((l) => l.tag));

describe('the REST client types (openapi-typescript) of the live document', () => {
  it('are the checked-in clients/rest/schema.d.ts (else: npm run generate:rest-client)', () => {
    expect(types === readFileSync(schemaFile, 'utf8'), 'clients/rest/schema.d.ts is out of date: run npm run generate:rest-client').toBe(true);
  });

  it('give literal unions for languages, statuses and actions', () => {
    for (const declaration of [
      `targetLanguage: (${languages}) | null;`, // an account's, as answered
      `targetLanguage: ${languages};`, // as set
      `source_language: ${languages} | "auto";`,
      'enrichmentStatus: "pending" | "ready" | "failed";',
      'status: "pending" | "translated" | "failed";', // a sentence
      'status: "pending" | "ready" | "failed";', // an audio clip
      'action: "refresh_enrichment";',
      'rating: "again" | "hard" | "good" | "easy";',
      'scope: "read" | "write";',
    ])
      expect(types).toContain(declaration);
  });

  it('are what a client compiles against', () => {
    type Json<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
    expectTypeOf<Json<'account.setLanguages'>['targetLanguage']>().toEqualTypeOf<LanguageTag>();
    expectTypeOf<Json<'pageTranslation.translate'>['source_language']>().toEqualTypeOf<LanguageTag | 'auto'>();
    expectTypeOf<Json<'library.retryPreparation'>['action']>().toEqualTypeOf<'refresh_enrichment'>();
    expectTypeOf<components['schemas']['Card']['enrichmentStatus']>().toEqualTypeOf<'pending' | 'ready' | 'failed'>();
    expectTypeOf<components['schemas']['Account']['nativeLanguage']>().toEqualTypeOf<LanguageTag | null>();
  });
});

describe('the shared REST client (openapi-fetch)', () => {
  it('reads the account with a bearer token, and a wrong token gets the problem', async () => {
    const user = await newUser(stack);
    const { data, error } = await createRestClient({ baseUrl: `${stack.baseUrl}/`, token: user.token }).GET('/api/me');
    expect(error).toBeUndefined();
    expect(data?.email).toBe(user.email);

    const refused = await createRestClient({ baseUrl: stack.baseUrl, token: 'lcs_not-a-token' }).GET('/api/me');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe('unauthenticated');
  });
});
