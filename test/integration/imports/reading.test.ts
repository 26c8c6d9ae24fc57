/**
 * The reader threads' bounds (src/features/library/imports/reading.ts), through readImportFile
 * itself with the limits a server is configured with: one read per learner, a few per process,
 * a memory limit and a deadline, each ending with the problem that names it. Real threads; no stack.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedImport } from '../../../src/domain/imports.ts';
import { AppError } from '../../../src/domain/problems.ts';
import type { FeatureContext } from '../../../src/features/context.ts';
import { readImportFile, type ReadLimits } from '../../../src/features/library/imports/reading.ts';

const contextWith = (reading: Partial<ReadLimits>) =>
  ({ config: { imports: { reading: { maxConcurrent: 2, deadlineMs: 30_000, memoryMb: 256, ...reading } } } }) as unknown as FeatureContext;
const text = (value: string) => new TextEncoder().encode(value);

/** The AppError a read ends with (failing the test when it ends otherwise). */
async function problemOf(read: Promise<ParsedImport>): Promise<AppError> {
  const error = await read.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('reading import files in threads', () => {
  it('reads a file in a thread and gives back its rows', async () => {
    const parsed = await readImportFile(contextWith({}), 'learner-a', text('break a leg\ncall it a day\n'), { format: 'lines' });
    expect(parsed.rows).toEqual([
      { line: 1, text: 'break a leg' },
      { line: 2, text: 'call it a day' },
    ]);
  });

  it('reads one file per learner at a time (429 import_reads), and no more than the process’s bound (503)', async () => {
    const ctx = contextWith({ maxConcurrent: 2 });
    const file = text('break a leg\n');
    // Each call takes its slots before its first await: the second is refused while the first is read.
    const first = readImportFile(ctx, 'learner-b', file, {});
    const again = await problemOf(readImportFile(ctx, 'learner-b', file, {}));
    expect(again).toMatchObject({ code: 'rate_limited', status: 429, extensions: { limit: 'import_reads' } });
    const other = readImportFile(ctx, 'learner-c', file, {});
    const third = await problemOf(readImportFile(ctx, 'learner-d', file, {}));
    expect(third).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect((await first).rows).toHaveLength(1);
    expect((await other).rows).toHaveLength(1);
    // Once answered, the learner reads again.
    expect((await readImportFile(ctx, 'learner-b', file, {})).rows).toHaveLength(1);
  });

  it('ends a read past its memory limit with import_too_costly naming the limit', async () => {
    // A CSV row of two million columns (a 4 MB file): its parsed record alone is more than a thread of 8 MB of heap holds.
    // (A large file of one repeated line is not: its repeats are counted, not kept, and its text is one string.)
    const problem = await problemOf(readImportFile(contextWith({ memoryMb: 8 }), 'learner-e', text(`${'a,'.repeat(2_000_000)}b\n`), { format: 'csv' }));
    expect(problem).toMatchObject({ code: 'import_too_costly', status: 422, extensions: { limit: 'memory', limitMb: 8 } });
  }, 60_000);

  it('ends a read past its deadline with import_too_costly naming it', async () => {
    // No thread starts, loads its readers and answers within a millisecond.
    const problem = await problemOf(readImportFile(contextWith({ deadlineMs: 1 }), 'learner-f', text('break a leg\n'), {}));
    expect(problem).toMatchObject({ code: 'import_too_costly', status: 422, extensions: { limit: 'time', limitSeconds: 0.001 } });
    expect(problem.message).toMatch(/^Reading this file took longer than the 0.001 s a file may take; nothing was imported/);
  });
});
