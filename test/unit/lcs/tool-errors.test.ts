import { describe, expect, it } from 'vitest';
import { toolErrorText } from '../../../clients/lcs/mcp/server.ts';
import { ServiceError } from '../../../clients/lcs/service.ts';

describe('MCP tool error text', () => {
  it('says how long to wait after a 429', () => {
    expect(toolErrorText(new ServiceError('Too many requests.', 'rate_limited', 429, 7))).toBe(
      'rate_limited: Too many requests. Wait 7 seconds before calling again.',
    );
  });
  it('names the code and what the learner must do', () => {
    expect(toolErrorText(new ServiceError('Set your languages.', 'language_setup_required', 428))).toMatch(
      /^language_setup_required: Set your languages\. The learner must set/,
    );
    expect(toolErrorText(new ServiceError('Out.', 'insufficient_credits', 402))).toMatch(/^insufficient_credits: Out\. The learner has no credits/);
  });
  it('passes on a Retry-After of a passing outage', () => {
    expect(toolErrorText(new ServiceError('Down.', 'service_unavailable', 503, 5))).toBe('service_unavailable: Down. Try again in 5 seconds.');
  });
});
