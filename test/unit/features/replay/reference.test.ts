import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MASK_RATIO_RULE, MASK_RULES, RATING_RULES, replayReference } from '../../../../src/features/replay/reference.ts';

/** The doc comment right before `marker`, without the comment syntax. */
function docBefore(file: string, marker: string): string {
  const source = readFileSync(new URL(`../../../../src/${file}`, import.meta.url), 'utf8');
  const end = source.indexOf(marker);
  const start = source.lastIndexOf('/**', end);
  return source
    .slice(start, end)
    .trim()
    .split('\n')
    .slice(1, -1)
    .map((l) => l.replace(/^ \* ?/, ''))
    .join('\n');
}

describe('Replay API reference', () => {
  it('quotes the mask rules verbatim from mask.ts', () => {
    expect(docBefore('features/replay/mask.ts', 'export function buildMask')).toContain(MASK_RULES);
    expect(docBefore('features/replay/mask.ts', 'export function initialsHiddenShare')).toBe(MASK_RATIO_RULE);
    expect(replayReference).toContain(MASK_RULES);
  });

  it('quotes the rating mapping verbatim from replay-rating.ts', () => {
    expect(docBefore('domain/replay-rating.ts', 'export function ratingFromEvidence')).toContain(RATING_RULES);
    expect(replayReference).toContain(RATING_RULES);
  });
});
