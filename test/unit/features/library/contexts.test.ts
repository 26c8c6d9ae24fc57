import { describe, expect, it } from 'vitest';
import { contextParts, contextsToDrop, locateExpression, placeContext } from '../../../../src/features/library/contexts.ts';
import { preparationSchemaFor, type PreparationOutput } from '../../../../src/features/library/preparation-rules.ts';
import { CONTEXT_MAX } from '../../../../src/domain/limits.ts';
import { strictJsonSchema } from '../../../../src/model/model-client.ts';

const marked = (context: string, expression: string) => {
  const mark = locateExpression(context, expression);
  return mark ? contextParts(context, mark).expression : null;
};

describe('locateExpression', () => {
  it('finds the expression with case, accents, quotes and spacing folded, and marks the sentence’s own spelling', () => {
    expect(marked('We sat on the Bank of the river.', 'bank')).toBe('Bank');
    expect(marked('Elle a dit « déjà vu » hier.', 'deja vu')).toBe('déjà vu');
    expect(marked('He said it’s   raining cats and dogs!', "it's raining cats and dogs")).toBe('it’s   raining cats and dogs');
    expect(marked('Break a leg, they said.', 'Break a leg!')).toBe('Break a leg');
    expect(marked('Die STRASSE ist lang.', 'straße')).toBe('STRASSE');
  });

  it('prefers whole words, and still finds the expression inside a longer word', () => {
    expect(locateExpression('The embankment by the bank.', 'bank')).toEqual({ start: 22, end: 26 });
    expect(marked('The banks were muddy.', 'bank')).toBe('bank');
  });

  it('counts offsets in code points', () => {
    expect(locateExpression('🙂 a bank', 'bank')).toEqual({ start: 4, end: 8 });
  });

  it('answers null when the sentence does not contain it', () => {
    expect(locateExpression('We sat by the river.', 'bank')).toBeNull();
  });
});

describe('placeContext', () => {
  it('cleans the sentence and keys it as captures are keyed', () => {
    expect(placeContext('  On the   bank. ', ['bank'])).toEqual({ text: 'On the bank.', key: 'on the bank', mark: { start: 7, end: 11 } });
  });

  it('refuses an empty, oversized or unrelated context with a sentence saying why', () => {
    expect(placeContext('   ', ['bank'])).toEqual({ problem: 'context must not be empty' });
    expect(placeContext(`bank ${'x'.repeat(CONTEXT_MAX)}`, ['bank'])).toEqual({ problem: expect.stringContaining(`at most ${CONTEXT_MAX}`) });
    expect(placeContext('A walk by the river.', ['bank'])).toEqual({ problem: expect.stringContaining('must contain the expression “bank”') });
  });

  it('tries each expression in turn (a card’s text, then its corrected text)', () => {
    expect(placeContext('I will receive it.', ['recieve', 'receive'])).toMatchObject({ mark: { start: 7, end: 14 } });
  });
});

describe('contextsToDrop', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }));
  it('keeps the first and the newest up to the cap', () => {
    expect(contextsToDrop(ids(20))).toEqual([]);
    expect(contextsToDrop(ids(21))).toEqual(['c1']);
    expect(contextsToDrop(ids(23))).toEqual(['c1', 'c2', 'c3']);
  });
});

describe('preparationSchemaFor', () => {
  const answer: PreparationOutput = {
    translation: 'rive',
    correctedText: null,
    correctionNote: null,
    usage: { register: 'neutral', guidance: 'g', examples: ['e'] },
    focuses: [{ kind: 'meaning', note: 'n' }],
    sense: { gloss: 'bord d’une rivière', cue: 'river' },
  };
  const context = { text: 'We sat on the bank of the river.', start: 14, end: 18 };

  it('accepts a sense whose cue is words of the context outside the expression', () => {
    expect(preparationSchemaFor(context).safeParse(answer).success).toBe(true);
  });

  it('drops the sense of an answer that ignores the context (no sense, a cue not in it, the expression itself as the cue) and keeps the card', () => {
    for (const sense of [null, { gloss: 'g', cue: 'money' }, { gloss: 'g', cue: 'bank' }]) {
      expect(preparationSchemaFor(context).parse({ ...answer, sense })).toEqual({ ...answer, sense: null });
    }
  });

  it('sends a schema that states what JSON Schema can: a sense required with a context, null without one (the cue is checked by us)', () => {
    const withContext = strictJsonSchema(preparationSchemaFor(context)) as { properties: Record<string, unknown> };
    const without = strictJsonSchema(preparationSchemaFor(null)) as { properties: Record<string, unknown> };
    expect(without.properties.sense).toEqual({ type: 'null' });
    expect(withContext.properties.sense).not.toEqual({ type: 'null' });
    expect({ ...withContext.properties, sense: null }).toEqual({ ...without.properties, sense: null });
  });

  it('without a context, a sense is dropped', () => {
    expect(preparationSchemaFor(null).parse({ ...answer, sense: null })).toEqual({ ...answer, sense: null });
    expect(preparationSchemaFor(null).parse(answer)).toEqual({ ...answer, sense: null });
  });
});
