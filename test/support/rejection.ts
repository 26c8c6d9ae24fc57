import { expect } from 'vitest';
import { AppError } from '../../src/domain/problems.ts';

/** The catalog error a promise rejects with; the test fails when it resolves or rejects with anything else. */
export async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
