import { useSyncExternalStore } from 'react';
import { registerSW } from 'virtual:pwa-register';

// The service worker (web/sw/sw.ts) and the quiet "Update ready — reload" it leads to. A new
// version waits beside the running one until the learner takes it; while a Replay session is
// under way the offer is held back, so a reload never ends a session mid-way.

let waiting = false;
let holds = 0;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** How often an open app asks whether a new version is out (and when it comes back into view). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

const takeUpdate =
  'serviceWorker' in navigator
    ? registerSW({
        onNeedRefresh: () => {
          waiting = true;
          changed();
        },
        onRegisteredSW: (_url, registration) => {
          if (!registration) return;
          const check = () => void registration.update().catch(() => {});
          setInterval(check, UPDATE_CHECK_MS);
          document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
        },
      })
    : null;

/** Whether to offer the new version now: one is waiting and nothing holds it back. */
export const useUpdateReady = () => useSyncExternalStore(subscribe, () => waiting && holds === 0);

/** Holds the offer back (a Replay session under way); returns the release. */
export function holdUpdate(): () => void {
  holds += 1;
  changed();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    changed();
  };
}

/** The learner took the new version: it takes over and the page reloads into it. */
export const reloadIntoUpdate = () => void takeUpdate?.(true);
