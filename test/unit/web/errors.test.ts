import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { SENTENCE_MAX_CHARS } from '../../../src/domain/limits.ts';
import { problemCatalog, type ProblemCode } from '../../../src/domain/problems.ts';
import { explain, explainField, refusedForNow } from '../../../web/src/errors.ts';

/** A failed tRPC call as the client sees it: the problem under `data.problem`. */
const failed = (problem: Record<string, unknown>) =>
  new TRPCClientError('failed', { result: { error: { message: 'failed', code: -32600, data: { problem } } } as never });

describe('errors in plain language', () => {
  it('says every catalog code as a learner’s sentence, without HTTP statuses or provider internals', () => {
    for (const code of Object.keys(problemCatalog) as ProblemCode[]) {
      const { message } = explain(failed({ code, status: 500, detail: 'The model provider failed (HTTP 500)', title: 'x', type: '' }));
      expect(message, code).toMatch(/^[A-Z].*[.!]$/);
      expect(message, code).not.toMatch(/HTTP|\b[45]\d\d\b|provider|status/i);
    }
  });

  it('puts a refused field’s own sentence next to it, and the form’s sentence otherwise', () => {
    const invalid = failed({
      code: 'invalid_request',
      status: 400,
      detail: 'The request body is invalid. original_text: Too long',
      errors: [{ path: 'original_text', message: 'Too long' }],
    });
    expect(explainField(invalid, 'original_text')).toBe(`Enter a sentence of at most ${SENTENCE_MAX_CHARS.toLocaleString('en')} characters.`);
    expect(explainField(failed({ code: 'insufficient_credits', status: 402, detail: 'x' }), 'original_text')).toMatch(/^You are out of credits/);
  });

  it('tells "not now" (kept on the device for a later try) from "not this" (said, and dropped)', () => {
    const refusal = (code: ProblemCode) => failed({ code, status: problemCatalog[code].status, detail: 'x' });
    const notNow = (Object.keys(problemCatalog) as ProblemCode[]).filter((code) => refusedForNow(refusal(code)));
    expect(notNow.sort()).toEqual(
      [
        'unauthenticated',
        'origin_not_allowed',
        'language_setup_required',
        'rate_limited',
        'request_in_progress',
        'internal_error',
        'provider_output_invalid',
        'privacy_routing_unavailable',
        'service_unavailable',
      ].sort(),
    );
    expect(refusedForNow(new Error('fetch failed'))).toBe(true);
  });
});
