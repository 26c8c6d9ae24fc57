import { describe, expect, it } from 'vitest';
import { sentenceAround } from '../../../../../src/features/library/imports/koreader.ts';

describe('sentenceAround: the sentence a KOReader word was met in, from the text it kept on each side', () => {
  it('cuts the text before at the last sentence end and the text after at the first', () => {
    expect(sentenceAround('It rained. Then a sudden ', 'squall', ' hit us. We ran.')).toBe('Then a sudden squall hit us.');
    expect(sentenceAround('“Stop!” she said. He looked ', 'forlorn', ' and left? Yes.')).toBe('He looked forlorn and left?');
  });

  it('keeps the whole side when it holds no sentence end, and collapses whitespace', () => {
    expect(sentenceAround('mid-way through a\nvery long ', 'clause', ' that goes on')).toBe('mid-way through a very long clause that goes on');
  });

  it('is empty when KOReader kept nothing around the word', () => {
    expect(sentenceAround('', 'harpoon', '  ')).toBe('');
  });

  it('reads a long hostile context in one pass (no rescanning from every full stop)', () => {
    const before = '. '.repeat(200_000);
    expect(sentenceAround(before, 'word', ' end.')).toBe('word end.');
  });
});
