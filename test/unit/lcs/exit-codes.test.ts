import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../../clients/lcs/exit.ts';

describe('lcs exit codes', () => {
  it.each([
    [400, EXIT.usage],
    [422, EXIT.usage],
    [401, EXIT.auth],
    [403, EXIT.auth],
    [402, EXIT.noCredits],
    [429, EXIT.unavailable],
    [502, EXIT.unavailable],
    [503, EXIT.unavailable],
    [null, EXIT.unavailable],
    [404, EXIT.failure],
    [409, EXIT.failure],
    [428, EXIT.failure],
  ])('%s → %s', (status, code) => expect(exitCodeFor(status)).toBe(code));
});
