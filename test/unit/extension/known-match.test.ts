import { describe, expect, it } from 'vitest';
import { findKnown } from '../../../extension/src/shared/known-match.ts';
import { normaliseExpression } from '../../../src/domain/normalise.ts';

const known = (...texts: string[]) => texts.map((text, i) => ({ cardId: `card-${i}`, text: normaliseExpression(text), translation: `[fr] ${text}` }));
const found = (text: string, expressions: ReturnType<typeof known>) => findKnown(text, expressions).map(({ start, end }) => text.slice(start, end));

describe('findKnown', () => {
  it('finds expressions as the service normalises them: case, typographic quotes, whitespace runs', () => {
    const expressions = known('Break a leg!', "it's raining cats and dogs");
    expect(found('They said “BREAK a   leg” and It’s raining cats and dogs.', expressions)).toEqual(['BREAK a   leg', 'It’s raining cats and dogs']);
  });

  it('matches whole words only, and the longest expression where two overlap', () => {
    const expressions = known('cat', 'the cat sat');
    expect(found('concatenate the cat sat on a cat.', expressions)).toEqual(['the cat sat', 'cat']);
  });

  it('maps offsets back across characters that fold to more than one (ß → ss) or to nothing (soft hyphen)', () => {
    const expressions = known('strasse', 'well-known');
    expect(found('Die Straße ist well-\u00ADknown', expressions)).toEqual(['Straße', 'well-\u00ADknown']);
  });

  it('finds nothing with no expressions', () => {
    expect(findKnown('anything', [])).toEqual([]);
  });
});
