import type { ChargeKind } from '../../src/domain/credits.ts';

export type { ChargeKind };

/**
 * Every screen's words for a ledger kind, in one place so that a kind reads the same everywhere (the
 * stored kind `work` is a draft: docs/glossary.md). `name` stands alone (Progress's chart and table),
 * `noun` sits inside a sentence ("Your last draft cost …"), `paidFor` comes before the subject on a
 * line of the credits history ("Preparing “a piece of cake”").
 */
export const LEDGER_KINDS: Record<ChargeKind, { name: string; noun: string; paidFor: string }> = {
  capture_preparation: { name: 'Capture preparation', noun: 'capture', paidFor: 'Preparing' },
  work: { name: 'Draft', noun: 'draft', paidFor: 'Draft' },
  audio: { name: 'Audio', noun: 'audio clip', paidFor: 'Audio for' },
  page_translation: { name: 'Page translation', noun: 'page translation', paidFor: 'Page translation' },
  sentence_translation: { name: 'Sentence translation', noun: 'sentence', paidFor: 'Translating' },
};

/** The words a ledger line starts with; an entry of a kind this client does not know yet shows its reason. */
export function paidFor(kind: string, reason: string): string {
  return Object.hasOwn(LEDGER_KINDS, kind) ? LEDGER_KINDS[kind as ChargeKind].paidFor : reason.charAt(0).toUpperCase() + reason.slice(1);
}
