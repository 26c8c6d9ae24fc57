import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import { monthlyAllowance } from '../../../src/domain/plans.ts';
import { available, chargedFor, credits, isLow, lastCost, type Wallet } from '../credits.ts';
import { explain } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link } from '../router.tsx';
import { queryClient, trpc } from '../trpc.ts';
import { LEDGER_KINDS, paidFor, type ChargeKind } from '../ledger-kinds.ts';
import { formatDateTime, formatDay } from '../time.ts';
import { useNotify } from '../ui.tsx';

type Entry = inferOutput<typeof trpc.credits.ledger>['items'][number];

const LEDGER_PAGE = 50;
const PLAN_NAME = { free: 'Free', paid: 'Paid' } as const;

export const useCredits = () => useQuery(trpc.credits.balance.queryOptions());
/** The latest entries: enough to say what the last unit of work cost and what one card was charged. */
export const useRecentLedger = () => useQuery(trpc.credits.ledger.queryOptions({ limit: LEDGER_PAGE }));

/** Whether new model-backed work cannot start now: every credit is spent or held (false while unknown). */
export const isOut = (wallet: Wallet | undefined) => Boolean(wallet && available(wallet) === 0);
export const useOutOfCredits = () => isOut(useCredits().data);

/** Why model-backed work waits, in one sentence: spent until the renewal, or held by work in progress. */
export function whyWaiting(wallet: (Wallet & { periodEnd: string }) | undefined): string {
  if (!wallet) return 'Your credits are used up.';
  if (wallet.balance > wallet.held) return '';
  return wallet.balance > 0
    ? 'Every credit left is held by work in progress: this can start once it has finished.'
    : `Your credits are used up until ${formatDay(wallet.periodEnd)}.`;
}

/**
 * Said on every screen whose work needs credits, once they are used up: that they are, what
 * waits, when they renew, and what a paid plan gives.
 */
export function OutOfCredits({ waits, children }: { waits: string; children?: ReactNode }) {
  const wallet = useCredits().data;
  if (!wallet || !isOut(wallet)) return null;
  const held = wallet.balance > 0;
  return (
    <div className="warning out-of-credits" role="status">
      <p>
        <strong>{held ? 'Every credit left is held by work in progress.' : 'Your credits for this period are used up.'}</strong> {waits}{' '}
        {!held && <>They renew on {formatDay(wallet.periodEnd)}.</>}
        {wallet.plan === 'free' && <> A paid plan gives {credits(monthlyAllowance.paid)} every month.</>}
      </p>
      {children}
      <Link to={APP_PATHS.credits} className="link">
        Your credits and ledger
      </Link>
    </div>
  );
}

const renewalQuery = () => trpc.library.preparationSettings.queryOptions();
/** The learner's "Prepare when my credits renew" choice (off unless chosen). */
export const usePrepareOnRenewal = () => useQuery(renewalQuery()).data?.prepareOnRenewal;

/** The one "Prepare when my credits renew" switch, saved as soon as it is changed. */
export function RenewalChoice() {
  const notify = useNotify();
  const chosen = usePrepareOnRenewal();
  // The box follows the click at once: the mutation's own pending state arrives a tick later, and
  // a render in between would put the box back.
  const [sent, setSent] = useState<boolean | null>(null);
  const save = useMutation(
    trpc.library.setPreparationSettings.mutationOptions({
      onSettled: () => setSent(null),
      onSuccess: (saved) => {
        queryClient.setQueryData(renewalQuery().queryKey, saved);
        notify(
          saved.prepareOnRenewal
            ? 'Cards waiting for credits will be prepared when your credits renew.'
            : 'Cards waiting for credits will wait until you try them again.',
          'ok',
        );
      },
      onError: (error) => notify(explain(error).message, 'error'),
    }),
  );
  if (chosen === undefined) return null;
  return (
    <>
      <label className="check">
        <input
          type="checkbox"
          checked={sent ?? chosen}
          disabled={sent !== null}
          aria-describedby="renewal-hint"
          onChange={(event) => {
            setSent(event.target.checked);
            save.mutate({ prepareOnRenewal: event.target.checked });
          }}
        />
        Prepare when my credits renew
      </label>
      <p id="renewal-hint" className="hint">
        Captures whose preparation waited for credits are prepared (and charged) when the next period’s credits arrive. Otherwise they wait until you try them
        again.
      </p>
    </>
  );
}

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
export function CostBefore({ kind }: { kind: ChargeKind }) {
  const recent = useRecentLedger().data;
  const wallet = useCredits().data;
  if (!recent || !wallet) return null;
  const last = lastCost(recent.items, kind);
  const price = last === null ? 'It costs a few credits, charged once it is done.' : `Your last ${LEDGER_KINDS[kind].noun} cost ${credits(last)}.`;
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
            {w.plan === 'free' && <> A paid plan gives {credits(monthlyAllowance.paid)} every month.</>}
          </p>
          <h2>When credits run out</h2>
          <RenewalChoice />
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
  const words = paidFor(entry.kind, entry.reason);
  // One text node: in the link (a flex box) a space at the start of a child element of its own would be dropped.
  const subject = entry.subject ? ` “${entry.subject}${entry.subject.length >= 80 ? '…' : ''}”` : '';
  const pages = entry.kind === 'page_translation' ? <span className="muted"> · {entry.reason.replace(/^page translation( of)? ?/, '')}</span> : null;
  const what = (
    <>
      {words + subject}
      {pages}
    </>
  );
  const about =
    entry.kind === 'capture_preparation' && entry.ref && entry.subject ? <Link to={APP_PATHS.card.replace(':cardId', entry.ref)}>{what}</Link> : what;
  const free = entry.amount === 0;
  return (
    <li>
      <span className="ledger-what">
        {about}
        <time className="ledger-when muted" dateTime={entry.createdAt}>
          {formatDateTime(entry.createdAt)}
        </time>
      </span>
      <span className="ledger-amount" data-sign={entry.amount < 0 ? 'minus' : entry.amount > 0 ? 'plus' : 'free'}>
        {free ? 'free' : `${entry.amount > 0 ? '+' : '−'}${Math.abs(entry.amount).toLocaleString('en')}`}
      </span>
      <span className="ledger-after muted">balance {entry.balanceAfter.toLocaleString('en')}</span>
    </li>
  );
}
