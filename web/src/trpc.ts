import { hashKey, MutationCache, QueryCache, QueryClient, queryOptions } from '@tanstack/react-query';
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy, type inferOutput } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../src/http/operations.ts';
import { ANSWER_FRESH_MS, dropFirstCalls, takeFirstCall } from './first-calls.ts';

/**
 * The one client of the app, typed by the server's router: one call per request (the server does
 * not batch); subscriptions (the live status) as server-sent events, with the page's cookie.
 */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      // The opening screen's calls may be under way already (first-calls.ts): their answers are taken once.
      false: httpLink({ url: '/trpc', fetch: (url, init) => (typeof url === 'string' && init?.method === 'GET' && takeFirstCall(url)) || fetch(url, init) }),
    }),
  ],
});

/** The RFC 9457 problem tRPC carries under `data.problem` (src/http/trpc.ts). */
export type Problem = NonNullable<NonNullable<TRPCClientError<AppRouter>['data']>['problem']>;

const unreachable: Problem = { type: '', title: 'Unreachable', status: 0, code: 'service_unavailable', detail: 'The service cannot be reached.' };

/**
 * The problem behind a failed call. The hooks in front of every procedure (cross-site check,
 * rate limits) answer with a plain problem rather than tRPC's envelope; a failed fetch has none.
 */
export function problemOf(error: unknown): Problem {
  if (!(error instanceof TRPCClientError)) return unreachable;
  const fromEnvelope = (error as TRPCClientError<AppRouter>).data?.problem;
  if (fromEnvelope) return fromEnvelope;
  const plain = (error.meta as { responseJSON?: Partial<Problem> } | undefined)?.responseJSON;
  if (plain && typeof plain.code === 'string' && typeof plain.detail === 'string') return plain as Problem;
  return unreachable;
}

/** Errors that change the screen, handled once for every query and mutation. */
export const sessionEvents = { onSignedOut: () => {}, onLanguagesMissing: () => {} };

function onAnyError(error: unknown) {
  const { code } = problemOf(error);
  if (code === 'unauthenticated') sessionEvents.onSignedOut();
  if (code === 'language_setup_required') sessionEvents.onLanguagesMissing();
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onAnyError }),
  mutationCache: new MutationCache({ onError: onAnyError }),
  // networkMode 'always': without a network a call fails at once rather than pausing, so the screens that
  // work offline (Replay, capture) keep what they send on the device (offline-sync.ts) instead of waiting.
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: ANSWER_FRESH_MS, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

/**
 * The router as TanStack Query options: `trpc.library.get.queryOptions({ cardId })` for a screen,
 * `trpc.library.get.queryKey(…)` and `trpc.library.pathFilter()` to write into or invalidate the
 * cache. Every query key is derived here from the procedure's path and input, never typed by hand.
 */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

/** The account as the page knows it: what signing in answers (`account.me` adds a token's scope, which a page has no use for). */
export type Account = inferOutput<typeof trpc.account.login>;

/**
 * The signed-in account, or null when nobody is: the one source every screen reads. Its own key
 * (the procedure's path), since what it caches is not only `account.me`'s answer: also null, and
 * the account that signing in or setting the languages answers.
 */
export const accountQuery = queryOptions({
  queryKey: trpc.account.me.pathKey(),
  queryFn: async (): Promise<Account | null> => {
    try {
      return await trpcClient.account.me.query();
    } catch (error) {
      const problem = problemOf(error);
      if (problem.code === 'unauthenticated') return null;
      // Offline (the app opened from the service worker): the account this device last saw, so
      // Replay and capture go on and queue what they send.
      const known = isUnreachable(error) ? knownAccount() : undefined;
      if (known) return known;
      throw error;
    }
  },
  // Shown while the account is read, so the opening screen renders (and starts its own calls) at once: the
  // screens treat it as unconfirmed (App.tsx: no redirect, nothing sent, until the service answers).
  placeholderData: () => knownAccount(),
  staleTime: Infinity,
});

/** The signed-in account as last read, kept on the device for an offline start (its id, email, plan and languages). */
const ACCOUNT_KEY = 'lcs.account';
function knownAccount(): Account | undefined {
  const known = localStorage.getItem(ACCOUNT_KEY);
  return known ? (JSON.parse(known) as Account) : undefined;
}

// However the account was learned (read, signing in or up, the languages set), the device keeps it.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.query.queryHash !== hashKey(accountQuery.queryKey)) return;
  const account = event.query.state.data as Account | null | undefined;
  if (account) localStorage.setItem(ACCOUNT_KEY, JSON.stringify(account));
});

/** A call that never reached the service (no network), as opposed to one it answered. */
export const isUnreachable = (error: unknown) => problemOf(error).status === 0;

/** After sign-out, or a session that ended: nothing of the previous account stays in memory. */
export function forgetAccount() {
  dropFirstCalls();
  const signedIn = hashKey(accountQuery.queryKey);
  localStorage.removeItem(ACCOUNT_KEY);
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== signedIn });
  queryClient.setQueryData(accountQuery.queryKey, null);
}
