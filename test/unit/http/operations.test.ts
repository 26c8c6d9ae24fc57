import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, flattenOperations, isRestOnly, jsonOperations, noInput } from '../../../src/http/operation.ts';
import { appRouter, feedPaths, operations } from '../../../src/http/operations.ts';

const all = flattenOperations(operations);
const shared = jsonOperations(operations);
const restOnly = all.filter(([, operation]) => isRestOnly(operation)).map(([name]) => name);
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; output?: unknown } }>;

describe('the operation definitions', () => {
  it('are each one tRPC procedure at their name, a query exactly when REST reads with GET, with an output schema', () => {
    expect(Object.keys(procedures).sort()).toEqual([...shared.map(([name]) => name), ...feedPaths].sort());
    for (const name of feedPaths) expect(procedures[name]!._def.type, name).toBe('subscription');
    for (const [name, operation] of shared) {
      expect(procedures[name]!._def.type, name).toBe(operation.rest.method === 'GET' ? 'query' : 'mutation');
      expect(procedures[name]!._def.output, name).toBeDefined();
    }
  });

  it('are each one REST route', () => {
    const routes = all.map(([, { rest }]) => `${rest.method} ${rest.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('keep the streamed answers (files, audio bytes) and the raw file uploads on REST only', () => {
    expect(restOnly.sort()).toEqual(['audio.content', 'library.export', 'library.imports.createFromFile', 'library.imports.preview']);
    for (const name of restOnly) expect(procedures[name], name).toBeUndefined();
    expect(shared.length + restOnly.length).toBe(all.length);
  });
});

it('refuses a read operation that is not a GET, and a write operation that is (a read token may only GET)', () => {
  const operation = (auth: 'read' | 'write', method: 'GET' | 'POST') =>
    defineOperation({ tag: 't', summary: 's', auth, input: noInput, output: z.null(), rest: { method, path: '/x' }, handler: () => null });
  expect(() => operation('read', 'POST')).toThrow();
  expect(() => operation('write', 'GET')).toThrow();
  expect(() => operation('read', 'GET')).not.toThrow();
});
