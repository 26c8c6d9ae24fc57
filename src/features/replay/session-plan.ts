/**
 * Which cards a new Replay session practises, in which order, with which masks. Pure.
 */
import { REPLAY_COUNTS } from '../../domain/limits.ts';
import { buildMask } from './mask.ts';

export type ReplayCount = (typeof REPLAY_COUNTS)[number];

export interface ReplayCandidate {
  cardId: string;
  /** The card's native-language translation. */
  prompt: string;
  /** The English to reconstruct: the corrected text when preparation corrected it, else the text. */
  answer: string;
  /** True while the card has never been reviewed (FSRS state `new`). */
  isNew: boolean;
  due: Date;
  stability: number;
  reps: number;
}

export interface PlannedItem {
  position: number;
  cardId: string;
  prompt: string;
  answer: string;
  mask: string;
}

/**
 * Reviewed cards that are due (`due <= now`) come first, most overdue first; then never-reviewed
 * cards, oldest first (their `due` is their capture time). Reviewed cards not yet due are left
 * out. Ties break on the card id so the order is total. A card appears at most once. Each item's
 * mask is built from the card's current stability and review count.
 */
export function planSession(candidates: readonly ReplayCandidate[], count: number, now: Date): PlannedItem[] {
  const byDue = (a: ReplayCandidate, b: ReplayCandidate) => a.due.getTime() - b.due.getTime() || (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0);
  const due = candidates.filter((c) => !c.isNew && c.due.getTime() <= now.getTime()).sort(byDue);
  const fresh = candidates.filter((c) => c.isNew).sort(byDue);
  const seen = new Set<string>();
  const chosen: ReplayCandidate[] = [];
  for (const c of [...due, ...fresh]) {
    if (chosen.length >= count) break;
    if (seen.has(c.cardId)) continue;
    seen.add(c.cardId);
    chosen.push(c);
  }
  return chosen.map((c, position) => ({
    position,
    cardId: c.cardId,
    prompt: c.prompt,
    answer: c.answer,
    mask: buildMask({ cardId: c.cardId, answer: c.answer, stability: c.stability, reps: c.reps }),
  }));
}
