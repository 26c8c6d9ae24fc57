import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/domain/database-errors.ts';

describe('isDatabaseUnavailable', () => {
  it('recognises socket errors and the connection, resource and shutdown SQLSTATE classes', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '08006', '53300', '57P01', '57P03']) expect(isDatabaseUnavailable({ code })).toBe(true);
    for (const error of [{ code: '23505' }, { code: 42 }, new Error('x'), null, undefined, 'ECONNREFUSED']) expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("recognises node-postgres's errors for a lost connection, which carry no code", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    }
    expect(isDatabaseUnavailable(Object.assign(new Error('Connection terminated'), { code: '23505' }))).toBe(false);
  });
});
