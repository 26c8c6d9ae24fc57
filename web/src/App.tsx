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
import { Capture } from './screens/Capture.tsx';
import { OfflineStatus, UpdateReady } from './screens/DeviceStatus.tsx';
import { followQueues, sendQueued } from './offline-sync.ts';
import { forgetKeptSession } from './offline-store.ts';
import { keepShareThroughSignIn, takeKeptShare } from './share.ts';
import { dropFirstCalls } from './first-calls.ts';

export type { Account };

/** Loaded on first visit, with its chart library, so the first load does not grow. */
const Progress = lazy(() => import('./screens/Progress.tsx'));

const SIGNED_OUT_PATHS: string[] = [APP_PATHS.signIn, APP_PATHS.signUp];
/**
 * The app's destinations, in navigation order: a new screen adds its line here. On a phone the
 * `main` ones make the bottom bar and the others sit under its "More".
 */
interface Destination {
  to: string;
  label: string;
  main: boolean;
}
const DESTINATIONS: Destination[] = [
  { to: APP_PATHS.library, label: 'Library', main: true },
  { to: APP_PATHS.sentences, label: 'Sentences', main: true },
  { to: APP_PATHS.replay, label: 'Replay', main: true },
  { to: APP_PATHS.translate, label: 'Translate', main: true },
  { to: APP_PATHS.progress, label: 'Progress', main: false },
  { to: APP_PATHS.draft, label: 'Draft', main: false },
  { to: APP_PATHS.settings, label: 'Settings', main: false },
];

/** The signed-in account, or null when nobody is: the one source every screen reads. */
const useAccount = () => useQuery(accountQuery);

const hasLanguages = (account: Account) => Boolean(account.targetLanguage && account.nativeLanguage);

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
  // The account this device last saw is shown until the service answers: only the answer is acted on.
  const unconfirmed = account.isPlaceholderData;
  // The signed-in learner's cards and sentences are pushed as they settle, for as long as they are signed in.
  const signedIn = Boolean(me) && !unconfirmed;
  useEffect(() => (signedIn ? followStatusChanges() : undefined), [signedIn]);
  // What was done offline is counted, and sent when the network returns.
  const userId = unconfirmed ? undefined : me?.userId;
  useEffect(() => (userId ? followQueues(userId) : undefined), [userId]);

  // Where a visitor may be: signed out → sign-in; no languages yet → welcome; else the workspace.
  useEffect(() => {
    if (account.isPending || account.isError || unconfirmed) return;
    const path = route?.path;
    // The list started with the page is only for a learner who is shown their Library now.
    if (!me || !hasLanguages(me)) dropFirstCalls();
    if (!me) {
      // A share that arrives signed out waits in this tab for the learner to sign in.
      if (path === APP_PATHS.capture) keepShareThroughSignIn(window.location.search);
      if (!path || !SIGNED_OUT_PATHS.includes(path)) navigate(APP_PATHS.signIn, { replace: true });
    } else if (!hasLanguages(me)) {
      if (path !== APP_PATHS.welcome && path !== APP_PATHS.settings) navigate(APP_PATHS.welcome, { replace: true });
    } else {
      // Signed in with languages set: a share kept through sign-in opens now, once.
      const share = takeKeptShare();
      if (share !== null) navigate(`${APP_PATHS.capture}${share}`, { replace: true });
      else if (!path || path === APP_PATHS.home || SIGNED_OUT_PATHS.includes(path)) navigate(APP_PATHS.library, { replace: true });
    }
  }, [me, route?.path, account.isPending, account.isError, unconfirmed]);

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
    if (route.path === APP_PATHS.capture) screen = <Capture />;
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
          <span className="brand-name">Language Capture</span>
        </span>
        {me && <AccountBar account={me} />}
      </header>
      {workspace && <Navigation path={route.path} />}
      <main id="main" ref={mainRef} tabIndex={-1}>
        <UpdateReady />
        {me && <OfflineStatus />}
        {notice.message && <Notice notice={notice} onDismiss={() => notify('')} />}
        {screen}
      </main>
    </NoticeContext.Provider>
  );
}

/** The sections: one row of tabs on a wide screen; on a phone a bottom bar of the main ones and "More". */
function Navigation({ path }: { path: string }) {
  const [open, setOpen] = useState(false);
  const current = (to: string) => path.startsWith(to);
  const others = DESTINATIONS.filter((d) => !d.main);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [open]);
  const label = (d: Destination) => (d.to === APP_PATHS.replay ? <ReplayTabLabel /> : d.label);
  return (
    <nav className="tabs" aria-label="Sections">
      {DESTINATIONS.map((d) => (
        <Link key={d.to} to={d.to} className={d.main ? 'tab' : 'tab secondary'} aria-current={current(d.to) ? 'page' : undefined}>
          {label(d)}
        </Link>
      ))}
      <button
        type="button"
        className="tab more-toggle"
        aria-expanded={open}
        aria-controls="more-sections"
        aria-current={others.some((d) => current(d.to)) ? 'page' : undefined}
        onClick={() => setOpen(!open)}
      >
        More
      </button>
      {open && (
        <ul id="more-sections" className="more-sections">
          {[...others, { to: APP_PATHS.credits, label: 'Credits', main: false }].map((d) => (
            <li key={d.to}>
              <Link to={d.to} aria-current={current(d.to) ? 'page' : undefined}>
                {d.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function AccountBar({ account }: { account: Account }) {
  const notify = useNotify();
  const signOut = useMutation({
    mutationFn: async () => {
      await Promise.all([sendWaitingDeletes(), sendQueued()]);
      // The session kept for offline Replay leaves the device; anything still unsent stays for this learner's next sign-in.
      await forgetKeptSession();
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
