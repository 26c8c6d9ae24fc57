import { describe, expect, it } from 'vitest';
import { answerServes, planProviderCalls } from '../../../../src/features/page-translation/sharing.ts';

const entry = (key: string, length = 10) => ({ key, text: key.padEnd(length, '.') });

describe('answerServes', () => {
  const none = { alone: false, ownCall: false, callWithinRequest: false };

  it('serves an answer whose call carried only the requester’s own texts', () => {
    expect(answerServes({ ...none, alone: true })).toBe(true);
    expect(answerServes({ ...none, ownCall: true })).toBe(true);
    expect(answerServes({ ...none, callWithinRequest: true })).toBe(true);
  });

  it('never serves another user’s answer from a call with texts this request does not carry', () => {
    expect(answerServes(none)).toBe(false);
  });
});

describe('planProviderCalls', () => {
  it('batches new texts and gives each recurring text a call of its own', () => {
    const missing = [entry('a'), entry('b'), entry('c'), entry('d')];
    const calls = planProviderCalls(missing, (e) => e.key === 'b' || e.key === 'd', 8_000);
    expect(calls.map((call) => call.map((e) => e.key))).toEqual([['b'], ['d'], ['a', 'c']]);
  });

  it('makes a lone new text a call of its own', () => {
    expect(planProviderCalls([entry('only')], () => false, 8_000)).toEqual([[entry('only')]]);
  });

  it('splits the batched rest by the budget', () => {
    const calls = planProviderCalls([entry('a', 60), entry('b', 60), entry('c', 30)], () => false, 100);
    expect(calls.map((call) => call.map((e) => e.key))).toEqual([['a'], ['b', 'c']]);
    expect(planProviderCalls([], () => true, 100)).toEqual([]);
  });
});
