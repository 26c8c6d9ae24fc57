/**
 * An import's progress in words and numbers (issue 26), pure: the API, the web app and the CLI
 * say the same thing. "312 of 1,000 prepared; the rest are saved and will be prepared when your
 * credits renew on 1 December."
 */
import type { ImportState } from './schemas.ts';

export interface ImportCounts {
  total: number;
  saved: number;
  reused: number;
  prepared: number;
  preparing: number;
  waiting: number;
  waitingForCredits: number;
  failed: Record<string, number>;
  removed: number;
}

const n = (value: number) => value.toLocaleString('en');
/** `count` and its noun, singular for one: "1 card", "2 cards". */
const counted = (count: number, noun: string) => `${n(count)} ${noun}${count === 1 ? '' : 's'}`;
const day = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

/** The cards an import brought that are settled (prepared, failed, reused, removed) out of its total: what a progress bar shows. */
export function importDone(counts: ImportCounts): number {
  const failed = Object.values(counts.failed).reduce((a, b) => a + b, 0);
  return counts.prepared + failed + counts.reused + counts.removed;
}

/** What happened, once the import has stopped (or stopped to wait for credits); null while it runs. */
export function importOutcome(
  state: ImportState,
  counts: ImportCounts,
  resumeAt: Date | null,
  history: { cards: number; reviews: number } | null = null,
): { code: string; message: string } | null {
  const outcome = stoppedOutcome(state, counts, resumeAt);
  // An Anki package's history: "1,234 cards with 8,765 reviews; due dates kept."
  if (outcome && history) outcome.message += ` ${counted(history.cards, 'card')} with ${counted(history.reviews, 'review')}; due dates kept.`;
  return outcome;
}

function stoppedOutcome(state: ImportState, counts: ImportCounts, resumeAt: Date | null): { code: string; message: string } | null {
  const newCards = counts.saved;
  const failed = Object.entries(counts.failed).filter(([, count]) => count > 0);
  const failedCount = failed.reduce((a, [, b]) => a + b, 0);
  const reused = counts.reused > 0 ? ` ${n(counts.reused)} ${counts.reused === 1 ? 'was' : 'were'} already in your library.` : '';
  const failures =
    failedCount > 0 ? ` ${n(failedCount)} failed (${failed.map(([code, count]) => `${code}: ${n(count)}`).join(', ')}); retry them from the library.` : '';
  switch (state) {
    case 'waiting_for_credits': {
      const when = resumeAt ? ` on ${day(resumeAt)}` : '';
      return {
        code: 'insufficient_credits',
        message:
          `${n(counts.prepared)} of ${n(newCards)} prepared; the rest are saved and will be prepared when your credits ` + `renew${when}.${reused}${failures}`,
      };
    }
    case 'completed':
      return {
        code: failedCount > 0 ? 'completed_with_failures' : 'completed',
        message:
          failedCount > 0
            ? `${n(counts.prepared)} of ${n(newCards)} prepared.${failures}${reused}`
            : `${newCards === 0 ? 'No new cards' : newCards === 1 ? 'The new card is prepared' : `All ${counted(newCards, 'new card')} prepared`}.${reused}`,
      };
    case 'cancelled':
      return {
        code: 'cancelled',
        message:
          `Cancelled: ${n(counts.prepared)} of ${n(newCards)} prepared. The saved cards stay in your library; those not prepared can be prepared ` +
          `from there.${reused}`,
      };
    default:
      return null;
  }
}
