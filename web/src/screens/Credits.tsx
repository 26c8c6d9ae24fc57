import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { available, chargedFor, credits, isLow, lastCost } from '../credits.ts';
import { explain } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link } from '../router.tsx';
import { queryClient, trpc } from '../trpc.ts';
import { formatDateTime, formatDay } from '../time.ts';

type Entry = inferOutput<typeof trpc.credits.ledger>['items'][number];
/** The charge kinds of model-backed work, as the learner names them. */
export type ChargeKind = 'capture_preparation' | 'work' | 'audio' | 'page_translation' | 'sentence_translation';

const LEDGER_PAGE = 50;
const PLAN_NAME = { free: 'Free', paid: 'Paid' } as const;

export const useCredits = () => useQuery(trpc.credits.balance.queryOptions());
/** The latest entries: enough to say what the last unit of work cost and what one card was charged. */
const useRecentLedger = () => useQuery(trpc.credits.ledger.queryOptions({ limit: LEDGER_PAGE }));

/** After model-backed work: the balance and the ledger are read again. */
export const refreshCredits = () => queryClient.invalidateQueries(trpc.credits.pathFilter());

/** The balance in the header, a link to the ledger; marked when it runs low. */
export function CreditsBadge() {
  const wallet = useCredits().data;
  if (!wallet) return null;
  const low = isLow(wallet);
  // The name begins with what the badge shows, as voice control expects.
  const shown = `${credits(available(wallet))}${low ? ' · low' : ''}`;
  return (
    <Link to={APP_PATHS.credits} className={`credits${low ? ' low' : ''}`} aria-label={`${shown}: ${low ? 'running low, ' : ''}see the ledger`}>
      {shown}
    </Link>
  );
}

/** Said before a model-backed action: what the last one of its kind cost. */
export function CostBefore({ kind, noun }: { kind: ChargeKind; noun: string }) {
  const recent = useRecentLedger().data;
  const wallet = useCredits().data;
  if (!recent || !wallet) return null;
  const last = lastCost(recent.items, kind);
  const price = last === null ? 'It costs a few credits, charged once it is done.' : `Your last ${noun} cost ${credits(last)}.`;
  return (
    <span className="cost" data-low={isLow(wallet) || undefined}>
      {price} {isLow(wallet) ? `Only ${credits(available(wallet))} left this period.` : `${credits(available(wallet))} left.`}
    </span>
  );
}

/** Said after it: what the work on `refId` was charged (once the ledger has it). */
export function CostAfter({ refId }: { refId: string }) {
  const recent = useRecentLedger().data;
  const charged = recent ? chargedFor(recent.items, refId) : null;
  return charged === null ? null : <span className="cost"> Charged {credits(charged)}.</span>;
}

/** The wallet: what is left, what the plan gives, the ledger with reasons. */
export function Credits() {
  const wallet = useCredits();
  const ledger = useInfiniteQuery(trpc.credits.ledger.infiniteQueryOptions({ limit: LEDGER_PAGE }, { getNextPageParam: (page) => page.nextCursor }));
  const w = wallet.data;
  const entries = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="panel" aria-labelledby="credits-heading">
      <h1 id="credits-heading" tabIndex={-1}>
        Credits
      </h1>
      {w && (
        <>
          <p className="balance">
            <strong>{credits(available(w))}</strong> left until {formatDay(w.periodEnd)}
            {w.held > 0 && <span className="muted"> ({credits(w.held)} held by work in progress)</span>}
          </p>
          {isLow(w) && (
            <p className="warning" role="alert">
              You are running low. When credits run out, captures are still saved, but preparing them (translation and notes) waits until{' '}
              {formatDay(w.periodEnd)}.
            </p>
          )}
          <p className="muted">
            {PLAN_NAME[w.plan]} plan: {credits(w.monthlyAllowance)} every month, from {formatDay(w.periodStart)} to {formatDay(w.periodEnd)}. Unused credits do
            not carry over. Work done by the language model costs credits (preparing a capture, translations, audio, drafts); Replay and your library are free.
          </p>
        </>
      )}
      {wallet.isError && <p className="form-error">{explain(wallet.error).message}</p>}
      <h2 id="ledger-title">Ledger</h2>
      {ledger.isError && <p className="form-error">{explain(ledger.error).message}</p>}
      <ul className="ledger" aria-labelledby="ledger-title">
        {entries.map((entry) => (
          <LedgerLine key={entry.id} entry={entry} />
        ))}
      </ul>
      {ledger.hasNextPage && (
        <button type="button" onClick={() => void ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
          Older entries
        </button>
      )}
    </section>
  );
}

function LedgerLine({ entry }: { entry: Entry }) {
  const reason = entry.reason.charAt(0).toUpperCase() + entry.reason.slice(1);
  const about = entry.kind === 'capture_preparation' && entry.ref ? <Link to={APP_PATHS.card.replace(':cardId', entry.ref)}>{reason}</Link> : reason;
  return (
    <li>
      <span className="ledger-what">
        {about}
        <time className="ledger-when muted" dateTime={entry.createdAt}>
          {formatDateTime(entry.createdAt)}
        </time>
      </span>
      <span className="ledger-amount" data-sign={entry.amount < 0 ? 'minus' : 'plus'}>
        {entry.amount > 0 ? '+' : entry.amount < 0 ? '−' : ''}
        {Math.abs(entry.amount).toLocaleString('en')}
      </span>
      <span className="ledger-after muted">balance {entry.balanceAfter.toLocaleString('en')}</span>
    </li>
  );
}
