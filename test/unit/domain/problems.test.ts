import { describe, expect, it } from 'vitest';
import { AppError, problemBody, rateLimited } from '../../../src/domain/problems.ts';

describe('a problem that asks the client to wait', () => {
  it('says so in one field, which the body carries (the HTTP layer also sends it as Retry-After)', () => {
    const quota = new AppError('audio_quota_exceeded', 'Quota used up.', {}, { retryAfterSeconds: 90 });
    expect(quota.retryAfterSeconds).toBe(90);
    expect(problemBody(quota)).toMatchObject({ code: 'audio_quota_exceeded', status: 429, retryAfterSeconds: 90 });
  });

  it('rateLimited names its limit and rounds the wait up to whole seconds, at least one', () => {
    const limited = rateLimited('login', 1_200);
    expect(limited.retryAfterSeconds).toBe(2);
    expect(problemBody(limited)).toMatchObject({ code: 'rate_limited', limit: 'login', retryAfterSeconds: 2 });
    expect(rateLimited('address', 0).retryAfterSeconds).toBe(1);
  });

  it('is absent from problems that ask for no wait', () => {
    const error = new AppError('not_found', 'No such card.');
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(problemBody(error)).not.toHaveProperty('retryAfterSeconds');
  });
});
