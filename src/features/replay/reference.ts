import { MIN_LONG_TERM_REVIEWS } from './optimisation-rules.ts';
import { REPLAY_COUNTS } from '../../domain/limits.ts';

/** Verbatim from the doc comment of buildMask (src/features/replay/mask.ts); a unit test keeps them equal. */
export const MASK_RULES = `The mask is a string exactly as long as \`answer\` counted in Unicode code points (not UTF-16
units), one mask character per answer code point: \`_\` where the character is hidden and the
learner must type it, \`.\` where it is shown as is.

- Only letters (Unicode category L, any script: "é", "ß", "Ж", "語") are ever hidden. Spaces,
  punctuation (including apostrophes in "it's" / "don’t" and hyphens), symbols, emoji and
  digits are always shown.
- A combining mark (category M, e.g. the accent in "e\\u0301") shares the mask character of
  the letter it follows, so a letter and its accents are hidden or shown together. A mark
  that follows no letter is shown.
- How many letters are hidden grows with how well the card is known. A new card shows only
  the first letter of each word and hides every other letter; as FSRS stability grows, the
  first letters go too (see the share below), until every letter is hidden at 60 days of
  stability. Whatever the state, at least 3 letters are hidden (every letter of an answer
  with fewer), so a one-word answer is recalled, not recognised. An answer without letters
  has no \`_\`.
- The answer stays reconstructible from the prompt and the mask: spaces, punctuation and the
  length of every word are always shown, and nothing else is ever blanked.
- Hiding goes word by word (words are separated by spaces and dashes): the service picks a
  word and hides it from its end towards its start, then the next word. The first letter of
  every word stays visible as a hint until all other letters are hidden.
- The mask is deterministic: the order of words comes from a pseudo-random generator seeded
  with the card id and its review count. The same card in the same learning state always gets
  the same mask; after each review the blanks move. For the same card and review count, a
  higher stability hides a superset of the letters hidden at a lower one.`;

/** Verbatim from the doc comment of initialsHiddenShare (src/features/replay/mask.ts). */
export const MASK_RATIO_RULE = `Share of the words' first letters hidden for a card in the given learning state, in [0, 1].

Every letter but the first of each word is hidden from the first encounter on; the first
letters are the hints that remain. A never-reviewed card (\`reps\` 0) keeps them all (share 0).
After that the share grows
with the square root of FSRS stability — fast while a card is fragile, flattening as it
settles — \`√(min(stability, 60) / 60)\`: about 13 % at 1 day, 34 % at 7 days, 58 % at 20 days,
and every first letter from 60 days on. Non-decreasing in stability for any fixed \`reps\`.`;

/** Verbatim from the doc comment of ratingFromEvidence (src/domain/replay-rating.ts). */
export const RATING_RULES = `Turns the evidence of one completed Replay item into a rating, checked in this order:

1. \`autoFilled\` is true → **again** (the service filled characters in: not recalled).
2. \`usedHint\` is true → **hard**.
3. \`unaidedErrors\` is more than 2 and more than 20 % of the hidden characters → **hard** (many errors).
4. \`unaidedErrors\` is 1 or more (up to that limit) → **good** (few errors).
5. \`unaidedErrors\` is 0 → **easy** only when the recall was whole and fluent: at least 90 % of
   the answer's letters were hidden and, when \`durationMs\` is given, the learner took at most
   4 s + 0.8 s per hidden character. Otherwise → **good**.

So with 10 hidden characters, 1–2 errors rate good and 3 or more hard; with 20 hidden, up to 4
errors rate good and 5 or more hard. A clean answer with only the first letters shown (a new
card: about 75 % hidden) is good, not easy: the visible letters did part of the recall. The
same answer fully hidden is easy, unless it took longer than the fluent time (12 s for 10
hidden characters), which is effortful recall: good. \`durationMs\` never lowers a rating below
good, so a learner who left the page open is not punished for it.`;

export const replayReference = `## Replay
\`GET /api/replay?count=${REPLAY_COUNTS.join('|')}\` → \`{ sessionId, resumed, items: [{ itemId, cardId, prompt, answer, mask }] }\`
(any other \`count\` → 400). Free, like everything in Replay.
- **Resume first.** While you have an unfinished session (an item not yet completed), every GET returns
  it with \`resumed: true\` and only its remaining items, in their original order, whatever \`count\` says.
  A session is finished when all its items are completed. Concurrent GETs never open two sessions.
- **A new session** (\`resumed: false\`) holds up to \`count\` cards whose preparation is ready: first the
  reviewed cards that are due (most overdue first), then never-reviewed cards (oldest capture first).
  Reviewed cards not yet due are not included; no card appears twice. When there is nothing to practise
  the answer is \`{ sessionId: null, resumed: false, items: [] }\` and no session is opened.
- \`prompt\` is the card's translation into your native language; \`answer\` is the English to reconstruct:
  the corrected text when the card's preparation quietly corrected it, else the text as captured (you
  practise the correct form). Deleting a card removes its pending items.
- **The mask** is chosen by the service when the item is created and never changes for that item:

${MASK_RULES}

  The share of first letters hidden: ${MASK_RATIO_RULE}

\`POST /api/replay { itemId, usedHint, autoFilled, unaidedErrors, durationMs? }\` (booleans, an integer ≥ 0, and
optionally the milliseconds the learner took) →
\`{ itemId, cardId, rating, nextReviewAt, feedback: { text, translation, usage: { register, guidance, examples[] } } }\`.
The evidence becomes a rating that updates the card's FSRS schedule (\`nextReviewAt\` is its new due
time) and is written to the card's review history. The rating:

${RATING_RULES}

Completing an item again (a retry, or two at once) returns the first result and does not reschedule the
card again. Another user's item → 404.

\`POST /api/replay/undo { itemId }\` → \`{ sessionId, item }\` takes back the last rating of your latest session: the
card's schedule becomes exactly what it was before (from its review log), the review is removed, and the item
(and its session, if it had finished) is open again with the same mask. Any other item → 409 \`conflict\`.

\`GET /api/replay/forecast\` → \`{ dueNow, nextDueAt, newCards, days: [{ date, due }] }\`: reviewed cards due now, when
the next one falls due (null when none waits), never-reviewed ready cards, and the reviewed cards falling due on
each of the next 14 UTC days (today includes the overdue ones).

\`GET /api/replay/reviews?cardId=\` → \`{ items: [{ rating, reviewedAt, usedHint, autoFilled, unaidedErrors, durationMs }] }\`: the
card's reviews, newest first (at most 50), with the evidence each rating came from; an undone rating is not listed.
Another user's or an unknown card → 404.

\`GET /api/replay/settings\` and \`PUT /api/replay/settings { desiredRetention }\` (0.80–0.97, default 0.90): the
recall probability at which a card falls due. It applies from each card's next review. A card with a quiet
correction drills the corrected English; once the card holds no correction (you rejected it), its items,
remaining ones included, drill your text.

**Your own schedule.** Both settings answers carry \`personalSchedule: { longTermReviews, reviewsNeeded, latest }\`.
Once you have ${MIN_LONG_TERM_REVIEWS} reviews made a day or more after the card's previous one, your own FSRS
weights are fitted on your review log (fsrs-rs): every week, and at once on \`POST /api/replay/optimise\` (202
\`{ queued: true, … }\`; 409 \`conflict\` with \`longTermReviews\` and \`reviewsNeeded\` before that; the same log asked
twice is fitted once). The fit learns from all but your most recent fifth of reviews and is judged on those:
\`latest\` shows its held-out log loss and RMSE beside those of the weights in use, and \`applied: true\` when it
beat them on both, after which Replay schedules with it from each card's next review. Free.`;
