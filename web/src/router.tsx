import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

// Addresses through the History API: every screen has a URL, Back and Refresh work.
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());
/** Moves of the learner's own (a link, Back, Forward), as opposed to redirects, which replace. */
const moveListeners = new Set<() => void>();
const moved = () => moveListeners.forEach((listener) => listener());
window.addEventListener('popstate', () => {
  moved();
  changed();
});

export function navigate(to: string, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  if (!replace) moved();
  changed();
}

/** Calls `listener` when the learner moves to another address; returns the unsubscribe. */
export function onLearnerMove(listener: () => void): () => void {
  moveListeners.add(listener);
  return () => moveListeners.delete(listener);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useLocation = () => useSyncExternalStore(subscribe, () => location.pathname + location.search);

export function searchParam(name: string): string {
  return new URLSearchParams(location.search).get(name) ?? '';
}

/** An ordinary link (open in a new tab works) that moves within the app without a reload. */
export function Link({ to, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...props} />;
}
