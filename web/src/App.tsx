import { useMutation, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { APP_PATHS, matchPath } from './paths.ts';
import { Link, navigate, onLearnerMove, useLocation } from './router.tsx';
import { CardDetails } from './screens/CardDetails.tsx';
import { Credits, CreditsBadge } from './screens/Credits.tsx';
import { Draft } from './screens/Draft.tsx';
import { Library } from './screens/Library.tsx';
import { Import } from './screens/Import.tsx';
import { Replay } from './screens/Replay.tsx';
import { ReplayTabLabel } from './screens/ReplayOverview.tsx';
import { Sentences } from './screens/Sentences.tsx';
import { Settings } from './screens/Settings.tsx';
import { Translate } from './screens/Translate.tsx';
import { SignIn } from './screens/SignIn.tsx';
import { Welcome } from './screens/Welcome.tsx';
import { accountQuery, forgetAccount, queryClient, sessionEvents, trpcClient, type Account } from './trpc.ts';
import { Notice, NoticeContext, useNotify, type NoticeAction, type NoticeState, type Tone } from './ui.tsx';
import { sendWaitingDeletes } from './pending-deletes.ts';
import { followStatusChanges } from './live-status.ts';

export type { Account };

/** Loaded on first visit, with its chart library, so the first load does not grow. */
const Progress = lazy(() => import('./screens/Progress.tsx'));

const SIGNED_OUT_PATHS: string[] = [APP_PATHS.signIn, APP_PATHS.signUp];
const TABS = [
  { to: APP_PATHS.library, label: 'Library' },
  { to: APP_PATHS.sentences, label: 'Sentences' },
  { to: APP_PATHS.replay, label: 'Replay' },
  { to: APP_PATHS.progress, label: 'Progress' },
  { to: APP_PATHS.translate, label: 'Translate' },
  { to: APP_PATHS.draft, label: 'Draft' },
  { to: APP_PATHS.settings, label: 'Settings' },
] as const;

/** The signed-in account, or null when nobody is: the one source every screen reads. */
export const useAccount = () => useQuery(accountQuery);

export const hasLanguages = (account: Account) => Boolean(account.targetLanguage && account.nativeLanguage);

export function App() {
  const location = useLocation();
  const route = matchPath(location.split('?')[0]!);
  const account = useAccount();
  const [notice, setNotice] = useState<NoticeState>({ message: '', tone: 'info' });
  const notify = useCallback((message: string, tone: Tone = 'info', action?: NoticeAction) => setNotice({ message, tone, action }), []);
  const mainRef = useRef<HTMLElement>(null);
  // A notice belongs to the screen it was given on: moving on clears it (a redirect keeps it).
  useEffect(() => onLearnerMove(() => setNotice({ message: '', tone: 'info' })), []);

  useEffect(() => {
    sessionEvents.onSignedOut = () => {
      if (queryClient.getQueryData(accountQuery.queryKey) === null) return;
      forgetAccount();
      notify('Your session has ended. Please sign in again.', 'error');
    };
    sessionEvents.onLanguagesMissing = () => navigate(APP_PATHS.welcome);
  }, [notify]);

  const me = account.data;
  // The signed-in learner's cards and sentences are pushed as they settle, for as long as they are signed in.
  const signedIn = Boolean(me);
  useEffect(() => (signedIn ? followStatusChanges() : undefined), [signedIn]);

  // Where a visitor may be: signed out → sign-in; no languages yet → welcome; else the workspace.
  useEffect(() => {
    if (account.isPending || account.isError) return;
    const path = route?.path;
    if (!me) {
      if (!path || !SIGNED_OUT_PATHS.includes(path)) navigate(APP_PATHS.signIn, { replace: true });
    } else if (!hasLanguages(me)) {
      if (path !== APP_PATHS.welcome && path !== APP_PATHS.settings) navigate(APP_PATHS.welcome, { replace: true });
    } else if (!path || path === APP_PATHS.home || SIGNED_OUT_PATHS.includes(path)) {
      navigate(APP_PATHS.library, { replace: true });
    }
  }, [me, route?.path, account.isPending, account.isError]);

  // A new screen: its heading is read out and focused, as a page load would.
  useEffect(() => {
    mainRef.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [route?.path]);

  let screen: ReactNode = <p className="muted">Loading…</p>;
  if (account.isError)
    screen = (
      <p className="form-error" role="alert">
        The service cannot be reached. Reload the page in a moment.
      </p>
    );
  else if (me === null && route && SIGNED_OUT_PATHS.includes(route.path)) screen = <SignIn mode={route.path === APP_PATHS.signUp ? 'signup' : 'login'} />;
  else if (me && route?.path === APP_PATHS.welcome) screen = <Welcome account={me} />;
  else if (me && hasLanguages(me) && route) {
    if (route.path === APP_PATHS.library) screen = <Library account={me} />;
    if (route.path === APP_PATHS.libraryImport) screen = <Import />;
    if (route.path === APP_PATHS.card) screen = <CardDetails account={me} cardId={route.params.cardId!} />;
    if (route.path === APP_PATHS.replay) screen = <Replay account={me} />;
    if (route.path === APP_PATHS.settings) screen = <Settings account={me} />;
    if (route.path === APP_PATHS.credits) screen = <Credits />;
    if (route.path === APP_PATHS.sentences) screen = <Sentences account={me} />;
    if (route.path === APP_PATHS.translate) screen = <Translate account={me} />;
    if (route.path === APP_PATHS.draft) screen = <Draft />;
    if (route.path === APP_PATHS.progress)
      screen = (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Progress />
        </Suspense>
      );
  }
  const workspace = me && hasLanguages(me) && route && route.path !== APP_PATHS.welcome;

  return (
    <NoticeContext.Provider value={notify}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            “
          </span>
          Language Capture
        </span>
        {me && <AccountBar account={me} />}
      </header>
      {workspace && (
        <nav className="tabs" aria-label="Sections">
          {TABS.map((tab) => (
            <Link key={tab.to} to={tab.to} aria-current={route.path.startsWith(tab.to) ? 'page' : undefined}>
              {tab.to === APP_PATHS.replay ? <ReplayTabLabel /> : tab.label}
            </Link>
          ))}
        </nav>
      )}
      <main id="main" ref={mainRef} tabIndex={-1}>
        {notice.message && <Notice notice={notice} onDismiss={() => notify('')} />}
        {screen}
      </main>
    </NoticeContext.Provider>
  );
}

function AccountBar({ account }: { account: Account }) {
  const notify = useNotify();
  const signOut = useMutation({
    mutationFn: async () => {
      await sendWaitingDeletes();
      return trpcClient.account.logout.mutate();
    },
    // An ended session is signed out already.
    onSettled: () => {
      forgetAccount();
      notify('You are signed out.');
    },
  });
  return (
    <div className="account-bar">
      <CreditsBadge />
      <span className="who" title={account.email}>
        {account.email}
      </span>
      <button type="button" className="quiet" onClick={() => signOut.mutate()}>
        Sign out
      </button>
    </div>
  );
}
