import { describe, expect, it } from 'vitest';
import { isRetentionTable, nextBatchLimit, RETENTION_TABLES, summarisePass } from '../../../src/domain/retention.ts';

const budget = { batchRows: 500, maxRows: 1200, maxMs: 20_000 };

describe('nextBatchLimit', () => {
  it('starts with a full batch', () => {
    expect(nextBatchLimit(budget, { deleted: 0, elapsedMs: 0, lastBatchFull: true })).toBe(500);
  });

  it('stops once a batch found fewer rows than its limit: the table is clean', () => {
    expect(nextBatchLimit(budget, { deleted: 499, elapsedMs: 10, lastBatchFull: false })).toBe(0);
  });

  it('shrinks the last batch to what is left of the row budget, then stops', () => {
    expect(nextBatchLimit(budget, { deleted: 1000, elapsedMs: 10, lastBatchFull: true })).toBe(200);
    expect(nextBatchLimit(budget, { deleted: 1200, elapsedMs: 10, lastBatchFull: true })).toBe(0);
  });

  it('stops when the time budget is spent, even with rows left', () => {
    expect(nextBatchLimit(budget, { deleted: 500, elapsedMs: 20_000, lastBatchFull: true })).toBe(0);
  });
});

describe('summarisePass', () => {
  it('adds up the tables and keeps the failed ones', () => {
    const pass = summarisePass({ sessions: { deleted: 3, batches: 1, more: false }, work_drafts: { deleted: 4, batches: 2, more: true } }, ['audio_clips']);
    expect(pass).toEqual({
      deleted: 7,
      tables: { sessions: { deleted: 3, batches: 1, more: false }, work_drafts: { deleted: 4, batches: 2, more: true } },
      failed: ['audio_clips'],
    });
  });
});

describe('isRetentionTable', () => {
  it('accepts the swept tables only', () => {
    for (const table of RETENTION_TABLES) expect(isRetentionTable(table)).toBe(true);
    expect(isRetentionTable('ledger_entries')).toBe(false);
    expect(isRetentionTable(undefined)).toBe(false);
  });
});
