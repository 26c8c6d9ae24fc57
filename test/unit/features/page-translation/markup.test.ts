import { describe, expect, it } from 'vitest';
import { checkBatchOutput } from '../../../../src/features/page-translation/batch-check.ts';
import { checkMarkup } from '../../../../src/features/page-translation/markup.ts';

describe('checkMarkup', () => {
  it.each([
    ['plain text', 'Sign in', 'Connexion'],
    ['placeholders, which have their own check', 'Click <b0>here</b0> {0} <x1/>', 'Cliquez <b0>ici</b0> {0} <x1/>'],
    ['markup the source carried, as often as it was there', 'Use the <div class="a"> element', 'Utilisez l’élément <div  class="a">'],
    ['markup the source carried, dropped', 'Use the <div> element', 'Utilisez l’élément div'],
    ['a comparison that is no tag', 'if a < b and 2 <3', 'si a < b et 2 <3'],
    ['an unclosed opener the source had too', 'x<y holds', 'x<y est vrai'],
    ['brackets that are no link', 'see [1] (below)', 'voir [1] (ci-dessous)'],
  ])('accepts %s', (_name, source, translation) => {
    expect(checkMarkup(source, translation)).toEqual({ ok: true });
  });

  it.each([
    ['a script', 'Sign in', 'Connexion<script>fetch("//evil")</script>', 'an HTML tag'],
    ['an image with a handler', 'Home', 'Accueil <img src=x onerror=alert(1)>', 'an HTML tag'],
    ['an unclosed tag', 'Home', 'Accueil <img src=x onerror=alert(1)', 'an HTML tag'],
    ['a tag carrying attributes its source tag lacked', 'Use <div>', 'Utilisez <div onclick="x()">', 'an HTML tag'],
    ['a placeholder-like tag with attributes', 'Click <b0>here</b0>', 'Cliquez <b0 style="x">ici</b0>', 'an HTML tag'],
    ['one tag more than the source had', 'Use <br>', 'Utilisez <br><br>', 'an HTML tag'],
    ['a comment', 'Home', 'Accueil <!-- hi -->', 'an HTML comment or declaration'],
    ['a processing instruction', 'Home', 'Accueil <?php ?>', 'an HTML comment or declaration'],
    ['a Markdown link', 'Sign in', '[Connexion](https://evil.example/login)', 'a Markdown link or image'],
    ['a Markdown image', 'Home', 'Accueil ![](https://evil.example/t.png)', 'a Markdown link or image'],
  ])('refuses %s, naming the kind and never the text', (_name, source, translation, kind) => {
    const result = checkMarkup(source, translation);
    expect(result).toEqual({ ok: false, reason: `adds ${kind} absent from the source` });
  });

  it('makes checkBatchOutput reject the answer', () => {
    expect(checkBatchOutput([{ key: '0', text: 'Home' }], [{ id: '0', text: 'Accueil <iframe src=//evil>', detected_source_language: 'en' }])).toEqual({
      ok: false,
      reason: 'item 0 adds an HTML tag absent from the source',
    });
  });
});
