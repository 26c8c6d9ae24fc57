import { describe, expect, it } from 'vitest';
import { cardDetail, cardLine, type Card } from '../../../clients/lcs/context.ts';

const pending: Card = {
  cardId: '00000000-0000-4000-8000-000000000001',
  text: 'under the weather',
  enrichmentStatus: 'pending',
  createdAt: '2026-11-26T18:00:00.000Z',
  enrichment: null,
};

describe('a card in `lcs list` and `lcs show`', () => {
  it('says when a pending card waits out an outage of the language model', () => {
    const waiting: Card = {
      ...pending,
      enrichmentWaiting: { code: 'service_unavailable', message: 'Waiting for the language model', since: '2026-11-26T18:00:01.000Z' },
    };
    expect(cardLine(waiting)).toBe(`${pending.cardId}  pending  under the weather (waiting for the language model)`);
    expect(cardDetail(waiting).split('\n')[0]).toBe(cardLine(waiting));
    expect(cardLine(pending)).toBe(`${pending.cardId}  pending  under the weather`);
  });
});
