import { describe, expect, it } from 'vitest';
import { checkPlaceholders, extractPlaceholders } from '../../../../src/features/page-translation/placeholders.ts';

describe('extractPlaceholders', () => {
  it('finds paired, self-closing and brace placeholders in order, in canonical spelling', () => {
    expect(extractPlaceholders('Click <a0>here</a0> or <x1 /> {0} {12}').map((p) => [p.token, p.kind])).toEqual([
      ['<a0>', 'open'],
      ['</a0>', 'close'],
      ['<x1/>', 'self'],
      ['{0}', 'brace'],
      ['{12}', 'brace'],
    ]);
  });

  it('ignores markup-like text that is not a placeholder', () => {
    expect(extractPlaceholders('a < b, <b>bold</b>, {name}, { 0 }, <0>')).toEqual([]);
  });
});

describe('checkPlaceholders', () => {
  const ok = { ok: true };

  it('accepts text without placeholders and translations that keep them', () => {
    expect(checkPlaceholders('Hello', 'Bonjour')).toEqual(ok);
    expect(checkPlaceholders('Click <b0>here</b0> now {0}', 'Cliquez <b0>ici</b0> maintenant {0}')).toEqual(ok);
  });

  it('allows reordering, since word order differs between languages', () => {
    expect(checkPlaceholders('<b0>red</b0> <i1>car</i1> {0} {1}', '<i1>voiture</i1> <b0>rouge</b0> {1} {0}')).toEqual(ok);
  });

  it('tolerates whitespace inside a self-closing tag', () => {
    expect(checkPlaceholders('a <x0/> b', 'a <x0 /> b')).toEqual(ok);
  });

  it('rejects a dropped placeholder', () => {
    expect(checkPlaceholders('Click <b0>here</b0>', 'Cliquez ici')).toEqual({ ok: false, reason: 'placeholder <b0> missing' });
    expect(checkPlaceholders('{0} items', 'articles')).toEqual({ ok: false, reason: 'placeholder {0} missing' });
  });

  it('rejects an altered, added or repeated placeholder', () => {
    expect(checkPlaceholders('<b0>x</b0>', '<b1>x</b1>')).toMatchObject({ ok: false, reason: 'placeholder <b0> missing' });
    expect(checkPlaceholders('x', 'x {0}')).toEqual({ ok: false, reason: 'placeholder {0} not in the source' });
    expect(checkPlaceholders('{0}', '{0} {0}')).toEqual({ ok: false, reason: 'placeholder {0} repeated' });
  });

  it('rejects a pair closed before it is opened or mis-nested', () => {
    expect(checkPlaceholders('<b0>x</b0>', '</b0>x<b0>')).toMatchObject({ ok: false });
    expect(checkPlaceholders('<b0><i1>x</i1></b0>', '<b0><i1>x</b0></i1>')).toMatchObject({ ok: false });
  });

  it('does not hold a translation to nesting its own source breaks', () => {
    expect(checkPlaceholders('</b0> odd <b0>', '</b0> bizarre <b0>')).toEqual(ok);
  });
});
