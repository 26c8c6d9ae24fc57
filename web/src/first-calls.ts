// The calls the opening screen waits for, started the moment the app's code runs, before React and
// the screens are evaluated and rendered. On a repeat load from the service worker the account and
// the Library's first page then travel together, instead of the Library's call waiting for the
// account's answer and both for the first render (docs/phone.md: 808 ms to an interactive Library
// over slow 4G; the goal is 500). Nothing is kept: each answer is handed once to the app's own call
// for the same procedure and input (web/src/trpc.ts), and only while the page is still where it
// opened and the answer is as fresh as a cached one may be. No imports: web/src/opening.ts runs it first.

/**
 * The page's address, the only part of the page read here: declared, so that the server's type-check (which reaches this
 * file through web/src/errors.ts) needs no DOM.
 */
declare const location: { readonly pathname: string; readonly search: string; readonly origin: string };

/** How long an answer stays usable, here and in the app's query cache (its staleTime, web/src/trpc.ts). */
export const ANSWER_FRESH_MS = 5_000;

const LIBRARY_PATH = '/library';
const LIBRARY_PAGE_SIZE = 20;

/** The Library's list as an address asks for it (`?q=`, `?sort=met`): built here only, so the first call and the screen's agree. */
export function libraryListInput(search: string, sort: string) {
  return { limit: LIBRARY_PAGE_SIZE, ...(search ? { query: search } : {}), ...(sort === 'met' ? { sort: 'met' as const } : {}) };
}

/** A call by procedure and input, whatever the order of the input's keys or how its address encodes them. */
function callKey(url: string): string {
  const { pathname, searchParams } = new URL(url, location.origin);
  const input = searchParams.get('input');
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return `${pathname} ${input === null ? '' : JSON.stringify(sorted(JSON.parse(input)))}`;
}

interface FirstCall {
  response: Promise<Response>;
  /** When its answer arrived, once it has. */
  answeredAt?: number;
}
const started = new Map<string, FirstCall>();
/** The address the page opened on: the calls are for its screen only. */
let openedAt = '';

function start(procedure: string, input?: unknown) {
  const url = `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  const call: FirstCall = { response: fetch(url) };
  // A call that never reached the service is handed over as it failed: the app then works offline.
  call.response.then(
    () => (call.answeredAt = performance.now()),
    () => (call.answeredAt = performance.now()),
  );
  started.set(callKey(url), call);
}

/**
 * The answer started for this very call, once: only while the page is where it opened and the
 * answer is fresh. Anything else is asked for anew.
 */
export function takeFirstCall(url: string): Promise<Response> | undefined {
  if (started.size === 0) return undefined;
  const key = callKey(url);
  const call = started.get(key);
  if (!call) return undefined;
  started.delete(key);
  const fresh = call.answeredAt === undefined || performance.now() - call.answeredAt < ANSWER_FRESH_MS;
  return fresh && location.pathname + location.search === openedAt ? call.response : undefined;
}

/** The first screen is not the one the calls were for (signed out, no languages yet, another screen): they are dropped. */
export const dropFirstCalls = () => started.clear();

/** Every screen starts with the account; the Library, the installed app's start, also with its list (as an infinite list's first page). */
export function startFirstCalls() {
  openedAt = location.pathname + location.search;
  start('account.me');
  if (location.pathname === LIBRARY_PATH) {
    const params = new URLSearchParams(location.search);
    start('library.list', { ...libraryListInput(params.get('q') ?? '', params.get('sort') ?? ''), direction: 'forward' });
  }
}
