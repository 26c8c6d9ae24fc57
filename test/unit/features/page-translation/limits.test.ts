import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX, PAGE_TRANSLATION_LIMITS } from '../../../../src/domain/limits.ts';
import { pageTranslationRequestSchema } from '../../../../src/features/page-translation/schemas.ts';

const { maxItems, maxTotalCodePoints } = PAGE_TRANSLATION_LIMITS;

const body = (overrides: Record<string, unknown> = {}) => ({
  request_id: 'page-1:a.b_c',
  target_language: 'fr',
  source_language: 'auto',
  items: [{ id: 'a', text: 'Hello' }],
  ...overrides,
});

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `i${i}`, text: 'Hello' }));

function issues(input: unknown) {
  const result = pageTranslationRequestSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('page translation request limits', () => {
  it(`accepts ${maxItems} items and refuses ${maxItems + 1}`, () => {
    expect(issues(body({ items: items(maxItems) }))).toEqual([]);
    expect(issues(body({ items: items(maxItems + 1) }))).toEqual([{ path: 'items', message: `at most ${maxItems} items per request` }]);
  });

  it('refuses no items, empty ids and duplicate ids', () => {
    expect(issues(body({ items: [] }))).toEqual([{ path: 'items', message: 'at least 1 item' }]);
    expect(issues(body({ items: [{ id: '', text: 'x' }] }))).toEqual([{ path: 'items.0.id', message: 'must not be empty' }]);
    expect(
      issues(
        body({
          items: [
            { id: 'a', text: 'x' },
            { id: 'a', text: 'y' },
          ],
        }),
      )[0],
    ).toMatchObject({ path: 'items.1.id' });
  });

  it(`counts code points: ${maxTotalCodePoints} emoji pass, one more does not`, () => {
    expect(issues(body({ items: [{ id: 'a', text: '😀'.repeat(maxTotalCodePoints) }] }))).toEqual([]);
    expect(
      issues(
        body({
          items: [
            { id: 'a', text: '😀'.repeat(maxTotalCodePoints) },
            { id: 'b', text: 'é' },
          ],
        }),
      )[0],
    ).toMatchObject({ path: 'items' });
  });

  it('checks request_id length and alphabet', () => {
    expect(issues(body({ request_id: 'x'.repeat(IDEMPOTENCY_KEY_MAX) }))).toEqual([]);
    expect(issues(body({ request_id: 'x'.repeat(IDEMPOTENCY_KEY_MAX + 1) }))[0]).toMatchObject({ path: 'request_id' });
    expect(issues(body({ request_id: '' }))[0]).toMatchObject({ path: 'request_id' });
    expect(issues(body({ request_id: 'a b' }))[0]).toMatchObject({ path: 'request_id' });
  });

  it('accepts supported languages case-insensitively, auto only as the source', () => {
    const parsed = pageTranslationRequestSchema.parse(body({ target_language: 'ZH-hans', source_language: 'AUTO' }));
    expect(parsed).toMatchObject({ target_language: 'zh-Hans', source_language: 'auto' });
    expect(issues(body({ target_language: 'auto' }))[0]).toMatchObject({
      path: 'target_language',
      message: expect.stringContaining('only allowed as source_language'),
    });
    expect(issues(body({ source_language: 'xx' }))[0]).toMatchObject({ path: 'source_language' });
  });
});
