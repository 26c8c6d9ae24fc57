import { hasSiteAccess, onPermissionsChanged, requestSiteAccess } from '../shared/browser-compat.ts';

const GRANTED = 'Allowed: the extension may read the pages you open, and acts only when you select text or translate.';
const MISSING =
  'Not allowed: your browser has not given the extension access to websites, so it cannot capture or translate on any page. ' +
  'Allow it here; you can take it back in the browser’s add-on settings.';

/**
 * The onboarding's site-access step: says whether the extension may run on pages and, when not,
 * offers the button that asks (Firefox grants it only when asked, and lets the learner revoke it).
 */
export function showSiteAccess(section: HTMLElement): void {
  const status = section.querySelector<HTMLParagraphElement>('#site-access-status')!;
  const allow = section.querySelector<HTMLButtonElement>('#allow-sites')!;
  const refresh = async () => {
    const granted = await hasSiteAccess();
    status.textContent = granted ? GRANTED : MISSING;
    status.dataset.ok = String(granted);
    allow.hidden = granted;
  };
  // In the click's own turn: the browser asks the learner only during a user gesture.
  allow.addEventListener('click', () => void requestSiteAccess().then(refresh));
  onPermissionsChanged(() => void refresh());
  void refresh();
}
