import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';
import { newUser } from '../../support/users.ts';

let stack: Stack;
let doc: any;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  const res = await rawHttp(stack, 'GET', '/api/openapi.json');
  expectStatus(res, 200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(async () => {
  await stack?.close();
});

const FOUNDATION: [string, string][] = [
  ['post', '/api/auth/signup'],
  ['post', '/api/auth/login'],
  ['post', '/api/auth/logout'],
  ['get', '/api/me'],
  ['put', '/api/settings/language'],
  ['get', '/api/languages'],
  ['get', '/api/tokens'],
  ['post', '/api/tokens'],
  ['delete', '/api/tokens/{id}'],
  ['get', '/api/credits'],
  ['get', '/api/credits/ledger'],
  ['get', '/healthz'],
  ['get', '/readyz'],
];

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with both security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      session: { type: 'apiKey', in: 'cookie', name: 'lcs_session' },
    });
  });

  it.each(FOUNDATION)('lists %s %s with a summary and responses', (method, path) => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op.summary).toEqual(expect.any(String));
    expect(Object.keys(op.responses).length).toBeGreaterThan(0);
  });

  it('describes request and response bodies with their schemas', () => {
    const create = doc.paths['/api/tokens'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['name', 'scope']));
    expect(body.properties.scope.enum).toEqual(['read', 'write']);
    const created = create.responses['201'].content['application/json'].schema;
    expect(JSON.stringify(created)).toContain('token');
    const ledger = doc.paths['/api/credits/ledger'].get;
    expect(ledger.parameters.map((p: any) => [p.name, p.in])).toEqual(
      expect.arrayContaining([
        ['cursor', 'query'],
        ['limit', 'query'],
      ]),
    );
  });

  it('declares problem responses with the Problem schema', () => {
    expect(doc.components.schemas.Problem.properties).toMatchObject({
      type: expect.anything(),
      title: expect.anything(),
      status: expect.anything(),
      detail: expect.anything(),
      code: expect.anything(),
    });
    const me = doc.paths['/api/me'].get.responses;
    expect(Object.keys(me)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    expect(JSON.stringify(me['401'])).toContain('Problem');
  });

  it('documents every problem under application/problem+json, the media type problems are sent with', async () => {
    const undocumented: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) >= 400 && Object.keys(response.content ?? {}).join() !== 'application/problem+json')
            undocumented.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
    expect(JSON.stringify(doc.paths['/api/me'].get.responses['401'].content['application/problem+json'].schema)).toContain('Problem');
    const sent = await api(stack).GET('/api/me');
    expectStatus(sent, 401);
    expect(sent.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('documents on every operation the statuses the app answers whatever the route: 429 and 503, and 400/413/415 where a body may come', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        // The address limit (429) skips the health checks; a lost database (503) reaches every route but /healthz.
        const expected = path === '/healthz' ? [] : path === '/readyz' ? ['503'] : ['429', '503'];
        if (['post', 'put', 'patch', 'delete'].includes(method)) expected.push('400', '413', '415');
        for (const status of expected) if (!op.responses[status]) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths['/api/languages'].get.responses)).toEqual(expect.arrayContaining(['200', '429', '503']));
  });

  it('is right about them: a route that takes no body still answers 415 to one in another media type', async () => {
    const { token } = await newUser(stack);
    const xml = await rawHttp(stack, 'POST', '/api/replay/optimise', { token, headers: { 'content-type': 'application/xml' }, rawBody: '<a/>' });
    expectProblem(xml, 415, 'unsupported_media_type');
    expect(doc.paths['/api/replay/optimise'].post.responses['415']).toBeDefined();
  });

  it('marks public operations as needing no credentials', () => {
    for (const [method, path] of [
      ['get', '/api/languages'],
      ['get', '/healthz'],
      ['get', '/readyz'],
      ['post', '/api/auth/signup'],
      ['post', '/api/auth/login'],
    ] as const) {
      expect(doc.paths[path][method].security, `${method} ${path}`).toEqual([]);
    }
    expect(doc.paths['/api/me'].get.security ?? doc.security).not.toEqual([]);
  });

  it('lists REST operations only (no tRPC catch-alls, no internal routes)', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/trpc') || p.startsWith('/docs') || p === '/api/openapi.json')).toEqual([]);
  });

  it('is served without credentials', async () => {
    expect((await rawHttp(stack, 'GET', '/api/openapi.json')).status).toBe(200);
  });
});

describe('/docs', () => {
  it('serves the rendered reference page', async () => {
    const res = await rawHttp(stack, 'GET', '/docs');
    expectStatus(res, 200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });
});

describe('health', () => {
  it('GET /healthz → 200', async () => {
    const res = await api(stack).GET('/healthz');
    expectStatus(res, 200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz → 200 with database and temporal ok', async () => {
    const res = await api(stack).GET('/readyz');
    expectStatus(res, 200);
    expect(res.body).toEqual({ status: 'ready', database: 'ok', temporal: 'ok' });
  });
});
