import { QueryCache, QueryClient, MutationCache } from '@tanstack/react-query';
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/http/operations.ts';

/**
 * The one client of the app, typed by the server's router: one call per request (the server does
 * not batch); subscriptions (the live status) as server-sent events, with the page's cookie.
 */
export const trpc = createTRPCClient<AppRouter>({
  links: [splitLink({
    condition: (op) => op.type === 'subscription',
    true: httpSubscriptionLink({ url: '/trpc' }),
    false: httpLink({ url: '/trpc' }),
  })],
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

/** After sign-out, or a session that ended: nothing of the previous account stays in memory. */
export function forgetAccount() {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'account.me' });
  queryClient.setQueryData(['account.me'], null);
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
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
});
