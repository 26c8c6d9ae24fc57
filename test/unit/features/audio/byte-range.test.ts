import { describe, expect, it } from 'vitest';
import { byteChunks, contentRange, decideRange, unsatisfiedRange } from '../../../../src/features/audio/byte-range.ts';

describe('decideRange', () => {
  const size = 1000;
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-50', { start: 950, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['BYTES = 0 - 0', { start: 0, end: 0 }],
    ['bytes=0-99999999999999999999999', { start: 0, end: 999 }],
  ])('%s → partial %j', (header, range) => {
    expect(decideRange(header, size)).toEqual({ kind: 'partial', range });
  });

  it.each(['bytes=1000-', 'bytes=1000-1200', 'bytes=-0', 'bytes=99999999999999999999-'])('%s → unsatisfiable', (header) => {
    expect(decideRange(header, size)).toEqual({ kind: 'unsatisfiable' });
  });

  it.each([undefined, '', 'bytes=', 'bytes=-', 'bytes=5-1', 'bytes=0-1,5-9', 'items=0-1', 'bytes=a-b', 'bytes=1.5-2'])('%s → whole body', (header) => {
    expect(decideRange(header, size)).toEqual({ kind: 'full' });
  });

  it('cannot satisfy any range of an empty body', () => {
    expect(decideRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('formats Content-Range', () => {
    expect(contentRange({ start: 0, end: 99 }, 1000)).toBe('bytes 0-99/1000');
    expect(unsatisfiedRange(1000)).toBe('bytes */1000');
  });
});

describe('byteChunks', () => {
  it('covers the range in consecutive pieces of at most the chunk size', () => {
    expect(byteChunks({ start: 0, end: 9 }, 4)).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 8, end: 9 },
    ]);
    expect(byteChunks({ start: 5, end: 5 }, 4)).toEqual([{ start: 5, end: 5 }]);
    expect(byteChunks({ start: 3, end: 10 }, 8)).toEqual([{ start: 3, end: 10 }]);
    expect(byteChunks({ start: 3, end: 11 }, 8)).toEqual([
      { start: 3, end: 10 },
      { start: 11, end: 11 },
    ]);
  });
});
