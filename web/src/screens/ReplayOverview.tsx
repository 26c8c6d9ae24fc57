import { useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import type { FormEvent } from 'react';
import { APP_PATHS } from '../paths.ts';
import { Link } from '../router.tsx';
import { dueFromNow, formatDateTime } from '../time.ts';
import { queryClient, trpc } from '../trpc.ts';
import { textField } from '../ui.tsx';
import { REPLAY_COUNTS } from '../../../src/domain/limits.ts';

export type Result = inferOutput<typeof trpc.replay.complete>;
/** One completed item: the service's result and the learner's first wrong try, if there was one. */
export interface Outcome {
  result: Result;
  firstTry: string | null;
}
export type Count = `${(typeof REPLAY_COUNTS)[number]}`;

export const RATING_WORD: Record<Result['rating'], string> = { easy: 'Effortless', good: 'Recalled', hard: 'With help', again: 'Again soon' };

const useForecast = () => useQuery(trpc.replay.forecast.queryOptions());
export const refreshForecast = () => queryClient.invalidateQueries(trpc.replay.forecast.pathFilter());
type Forecast = NonNullable<ReturnType<typeof useForecast>['data']>;

/** What a session would hold now: the due reviews, then the cards never practised. */
const waiting = (f: Forecast) => f.dueNow + f.newCards;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The Replay tab's name with what waits as a badge, read as one phrase ("Replay, 3 to practise"). */
export function ReplayTabLabel() {
  const forecast = useForecast().data;
  const count = forecast ? waiting(forecast) : 0;
  if (count === 0) return <>Replay</>;
  return (
    <>
      <span aria-hidden="true">
        Replay<span className="tab-badge">{count}</span>
      </span>
      <span className="visually-hidden">Replay, {count} to practise</span>
    </>
  );
}

/** Before a session: what waits, or an honest "all caught up" with the next due time; after one, its summary. */
export function ReplayOverview({
  outcomes,
  message,
  starting,
  onStart,
}: {
  outcomes: Outcome[] | null;
  message: string;
  starting: boolean;
  onStart: (count: Count) => void;
}) {
  const forecast = useForecast();
  const f = forecast.data;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onStart(textField(new FormData(event.currentTarget), 'count') as Count);
  };
  return (
    <>
      {outcomes && <Summary outcomes={outcomes} />}
      {message && (
        <p className="status" role="status">
          {message}
        </p>
      )}
      {f && waiting(f) > 0 && (
        <form className="replay-start" onSubmit={submit} noValidate>
          <p className="waiting">
            <strong>{plural(f.dueNow, 'review')} due now</strong>
            {f.newCards > 0 && <> · {plural(f.newCards, 'new expression')}</>}
          </p>
          <p className="muted">Rebuild the English from its translation. Hidden letters are yours to fill in.</p>
          <div className="row">
            <label htmlFor="replay-count">Items</label>
            <select id="replay-count" name="count">
              {REPLAY_COUNTS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <button type="submit" className="primary" disabled={starting}>
              Start Replay
            </button>
          </div>
        </form>
      )}
      {f &&
        waiting(f) === 0 &&
        (f.nextDueAt ? (
          <div className="caught-up">
            <h2>All caught up</h2>
            <p>
              Nothing is due now. Your next review is due{' '}
              <time dateTime={f.nextDueAt} title={formatDateTime(f.nextDueAt)}>
                {dueFromNow(f.nextDueAt)}
              </time>
              .
            </p>
          </div>
        ) : (
          <p>
            Nothing to practise yet: expressions join Replay once their preparation is ready.{' '}
            <Link to={APP_PATHS.library} className="link">
              Capture one
            </Link>
          </p>
        ))}
    </>
  );
}

function Summary({ outcomes }: { outcomes: Outcome[] }) {
  const count = (ratings: Result['rating'][]) => outcomes.filter((o) => ratings.includes(o.result.rating)).length;
  return (
    <div className="summary" role="region" aria-label="Session summary">
      <h2 tabIndex={-1} ref={(el) => el?.focus()}>
        Session complete: you practised {plural(outcomes.length, 'expression')}.
      </h2>
      <p className="muted">
        {count(['easy', 'good'])} recalled · {count(['hard'])} with help · {count(['again'])} coming back soon
      </p>
      <ul className="summary-items">
        {outcomes.map(({ result, firstTry }) => (
          <li key={result.itemId}>
            <span className={`rating-word rating-${result.rating}`}>{RATING_WORD[result.rating]}</span>
            <span className="summary-what">
              <span lang="en">{result.feedback.text}</span>
              {firstTry && (
                <span className="muted">
                  {' '}
                  (first try: <span lang="en">{firstTry}</span>)
                </span>
              )}
              <span className="muted">
                {' '}
                · next <time dateTime={result.nextReviewAt}>{dueFromNow(result.nextReviewAt)}</time>
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
