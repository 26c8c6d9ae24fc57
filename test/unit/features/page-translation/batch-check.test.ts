import { describe, expect, it } from 'vitest';
import { checkBatchOutput, detectedLanguage } from '../../../../src/features/page-translation/batch-check.ts';

const requested = [
  { key: '0', text: 'Click <b0>here</b0>' },
  { key: '1', text: 'Hello' },
];

describe('checkBatchOutput', () => {
  it('maps every requested entry to its translation and detected language', () => {
    const result = checkBatchOutput(requested, [
      { id: '1', text: 'Bonjour', detected_source_language: 'EN' },
      { id: '0', text: 'Cliquez <b0>ici</b0>', detected_source_language: null },
    ]);
    expect(result).toEqual({
      ok: true,
      entries: new Map([
        ['1', { text: 'Bonjour', detectedSourceLanguage: 'en' }],
        ['0', { text: 'Cliquez <b0>ici</b0>', detectedSourceLanguage: 'und' }],
      ]),
    });
  });

  it.each([
    ['a missing item', [{ id: '0', text: 'Cliquez <b0>ici</b0>', detected_source_language: 'en' }], 'item 1 missing from the answer'],
    ['an unknown id', [{ id: '7', text: 'x', detected_source_language: 'en' }], 'unknown item id "7"'],
    [
      'a repeated id',
      [
        { id: '1', text: 'Bonjour', detected_source_language: 'en' },
        { id: '1', text: 'Salut', detected_source_language: 'en' },
      ],
      'item 1 answered twice',
    ],
    ['an empty translation', [{ id: '1', text: '  ', detected_source_language: 'en' }], 'item 1 has an empty translation'],
    ['a dropped placeholder', [{ id: '0', text: 'Cliquez ici', detected_source_language: 'en' }], 'item 0: placeholder <b0> missing'],
  ])('rejects %s', (_name, output, reason) => {
    expect(checkBatchOutput(requested, output)).toEqual({ ok: false, reason });
  });

  it('takes the one answer to a batch of one whatever its id, and checks it as any other', () => {
    const one = [{ key: '0', text: 'Click <b0>here</b0>' }];
    expect(checkBatchOutput(one, [{ id: ':', text: 'Cliquez <b0>ici</b0>', detected_source_language: 'en' }])).toEqual({
      ok: true,
      entries: new Map([['0', { text: 'Cliquez <b0>ici</b0>', detectedSourceLanguage: 'en' }]]),
    });
    expect(checkBatchOutput(one, [{ id: ':', text: 'Cliquez ici', detected_source_language: 'en' }])).toEqual({
      ok: false,
      reason: 'item 0: placeholder <b0> missing',
    });
  });
});

describe('detectedLanguage', () => {
  it('canonicalises supported tags, keeps other well-formed tags, and says und otherwise', () => {
    expect(detectedLanguage('zh-hans')).toBe('zh-Hans');
    expect(detectedLanguage('la')).toBe('la');
    expect(detectedLanguage('Latin')).toBe('und');
    expect(detectedLanguage(null)).toBe('und');
  });
});
