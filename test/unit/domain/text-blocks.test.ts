import { describe, expect, it } from 'vitest';
import { BLOCK_ELEMENTS, innermostBlocks, SKIPPED_ELEMENTS } from '../../../src/domain/text-blocks.ts';

/** An element as the rule reads it; `name` tells the tests' elements apart. */
interface Node {
  name: string;
  tagName: string;
  children: Node[];
  skip?: boolean;
}
const el = (name: string, ...children: Node[]): Node => ({ name, tagName: name.split('#')[0]!, children });
const names = (blocks: Node[]) => blocks.map((block) => block.name);
const blocksOf = (root: Node) => names(innermostBlocks(root, (node) => node.skip === true));

describe('the text-block lists', () => {
  it('name elements as the DOM spells them, and skip one block-level element only: PRE', () => {
    for (const tag of [...BLOCK_ELEMENTS, ...SKIPPED_ELEMENTS]) expect(tag).toMatch(/^[A-Z][A-Z0-9]*$/);
    expect([...BLOCK_ELEMENTS].filter((tag) => SKIPPED_ELEMENTS.has(tag))).toEqual(['PRE']);
  });
});

describe('innermostBlocks', () => {
  it('takes the innermost blocks in document order: containers give way to the blocks inside', () => {
    const article = el('ARTICLE', el('H2'), el('P#lead'), el('UL', el('LI#first', el('P#inner')), el('LI#second')), el('SPAN'));
    expect(blocksOf(el('BODY', el('NAV', el('A')), article))).toEqual(['NAV', 'H2', 'P#lead', 'P#inner', 'LI#second']);
  });

  it('takes a block that holds no block whole, down to the body of a fragment of inline text', () => {
    expect(blocksOf(el('BODY', el('SPAN', el('B'))))).toEqual(['BODY']);
    expect(blocksOf(el('BODY', el('DIV#a', el('EM')), el('DIV#b')))).toEqual(['DIV#a', 'DIV#b']);
    expect(blocksOf(el('P'))).toEqual(['P']);
  });

  it('never reads inside what holds no prose, and lets code inside a sentence stay in it', () => {
    const body = el('BODY', el('P#kept', el('CODE')), el('BUTTON', el('P#label')), el('SCRIPT'), el('TEXTAREA'), el('SECTION', el('P#after')));
    expect(blocksOf(body)).toEqual(['P#kept', 'P#after']);
  });

  it('does not take the element around a code listing whole with the code', () => {
    expect(blocksOf(el('BODY', el('DIV', el('SPAN'), el('PRE', el('CODE')))))).toEqual([]);
    expect(blocksOf(el('BODY', el('DIV', el('P#text'), el('PRE'))))).toEqual(['P#text']);
  });

  it('leaves alone what the client skips, which still bounds the blocks around it', () => {
    const marked: Node = { ...el('P#marked'), skip: true };
    expect(blocksOf(el('BODY', el('DIV', marked, el('SPAN'))))).toEqual([]);
    expect(blocksOf(el('BODY', el('DIV', marked, el('P#open'))))).toEqual(['P#open']);
    expect(blocksOf(el('BODY', { ...el('DIV', el('P#hidden')), skip: true }, el('P#shown')))).toEqual(['P#shown']);
  });
});
