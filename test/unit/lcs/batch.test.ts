import { describe, expect, it } from 'vitest';
import { runBatch, type Progress } from '../../../clients/lcs/batch.ts';

const quietBar: Progress = { tick() {}, note() {}, end() {} };

describe('runBatch', () => {
  it('sends a line whose key was met earlier only once the earlier line is answered, so the first in the input is saved first', async () => {
    const started: string[] = [];
    const open = new Map<string, () => void>();
    const send = (line: string) =>
      new Promise<string>((resolve) => {
        started.push(line);
        open.set(line, () => resolve(line));
      });
    const batch = runBatch(['Hit the sack', 'spill the beans', 'hit the sack'], 4, quietBar, send, (line) => line.toLowerCase());
    await Promise.resolve();
    // Both different expressions are in flight; the repeat waits for the first.
    expect(started).toEqual(['Hit the sack', 'spill the beans']);
    open.get('Hit the sack')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['Hit the sack', 'spill the beans', 'hit the sack']);
    open.get('spill the beans')!();
    open.get('hit the sack')!();
    const { results, exitCode } = await batch;
    expect(results.map((r) => r.ok && r.value)).toEqual(['Hit the sack', 'spill the beans', 'hit the sack']);
    expect(exitCode).toBe(0);
  });
});
