import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureTextProblem, decodeCursor, encodeCursor } from '../../../src/domain/library-listing.ts';

describe('cursor', () => {
  it('round-trips any position', () => {
    fc.assert(fc.property(fc.date({ min: new Date(0), max: new Date('2999-01-01'), noInvalidDate: true }), fc.uuid(), (createdAt, cardId) => {
      expect(decodeCursor(encodeCursor({ createdAt, cardId }))).toEqual({ createdAt, cardId });
    }));
  });

  it('rejects a position PostgreSQL cannot read (after year 9999)', () => {
    const cardId = '3f1c2a9e-6a1d-4c3f-9a7b-2b1c3d4e5f60';
    expect(decodeCursor(Buffer.from(`999999999999999.${cardId}`).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(`253402300800000.${cardId}`).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(`253402300799999.${cardId}`).toString('base64url'))).not.toBeNull();
  });

  it('is opaque (base64url) and rejects anything it did not produce', () => {
    const cursor = encodeCursor({ createdAt: new Date('2026-01-02T03:04:05.678Z'), cardId: '3f1c2a9e-6a1d-4c3f-9a7b-2b1c3d4e5f60' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of ['', 'not a cursor', '%%%', Buffer.from('123.not-a-uuid').toString('base64url'), Buffer.from('x.3f1c2a9e-6a1d-4c3f-9a7b-2b1c3d4e5f60').toString('base64url'), 'a'.repeat(201)]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });
});

describe('captureTextProblem', () => {
  it('accepts 1..280 code points with a letter, judged after cleaning', () => {
    expect(captureTextProblem('  break a leg  ')).toBeNull();
    expect(captureTextProblem('a')).toBeNull();
    expect(captureTextProblem('é'.repeat(280))).toBeNull();
    expect(captureTextProblem('😀'.repeat(279) + 'a')).toBeNull(); // 280 code points, 559 UTF-16 units
    expect(captureTextProblem(`${'a'.repeat(280)}     `)).toBeNull();
  });

  it('refuses empty, too long and letterless texts', () => {
    expect(captureTextProblem('')).toMatch(/empty/);
    expect(captureTextProblem(' \n\t ')).toMatch(/empty/);
    expect(captureTextProblem('a'.repeat(281))).toMatch(/at most 280/);
    expect(captureTextProblem('123 !?')).toMatch(/letter/);
    expect(captureTextProblem('日本語')).toBeNull(); // letters in any script
  });
});
