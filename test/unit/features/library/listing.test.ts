import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURSOR_PATTERN, captureTextProblem, decodeCursor, encodeCursor } from '../../../../src/features/library/listing.ts';
import { CAPTURE_TEXT_MAX as MAX } from '../../../../src/domain/limits.ts';

describe('cursor', () => {
  it('round-trips any position', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date('2999-01-01'), noInvalidDate: true }), fc.uuid(), (createdAt, cardId) => {
        expect(decodeCursor(encodeCursor({ createdAt, cardId }))).toEqual({ createdAt, cardId });
      }),
    );
  });

  it('reads a position PostgreSQL cannot write (after year 9999) as the last instant it can', () => {
    const cardId = '3f1c2a9e-6a1d-4c3f-9a7b-2b1c3d4e5f60';
    const far = Buffer.alloc(24, 0xff);
    Buffer.from(cardId.replaceAll('-', ''), 'hex').copy(far, 8);
    expect(decodeCursor(far.toString('base64url'))).toEqual({ createdAt: new Date('9999-12-31T23:59:59.999Z'), cardId });
  });

  it('is opaque: every string of its documented pattern is a position, nothing else is', () => {
    fc.assert(
      fc.property(fc.stringMatching(CURSOR_PATTERN), (cursor) => {
        const position = decodeCursor(cursor)!;
        expect(position.createdAt.getTime()).not.toBeNaN();
        expect(position.cardId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }),
    );
    for (const bad of ['', 'not a cursor', '%%%', 'a'.repeat(31), 'a'.repeat(33), Buffer.from('123.not-a-uuid').toString('base64url')]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });
});

describe('captureTextProblem', () => {
  it(`accepts 1..${MAX} code points with a letter, judged after cleaning`, () => {
    expect(captureTextProblem('  break a leg  ')).toBeNull();
    expect(captureTextProblem('a')).toBeNull();
    expect(captureTextProblem('é'.repeat(MAX))).toBeNull();
    expect(captureTextProblem('😀'.repeat(MAX - 1) + 'a')).toBeNull(); // MAX code points, 2 × MAX − 1 UTF-16 units
    expect(captureTextProblem(`${'a'.repeat(MAX)}     `)).toBeNull();
  });

  it('refuses empty, too long and letterless texts', () => {
    expect(captureTextProblem('')).toMatch(/empty/);
    expect(captureTextProblem(' \n\t ')).toMatch(/empty/);
    expect(captureTextProblem('a'.repeat(MAX + 1))).toContain(`at most ${MAX}`);
    expect(captureTextProblem('123 !?')).toMatch(/letter/);
    expect(captureTextProblem('日本語')).toBeNull(); // letters in any script
  });
});
