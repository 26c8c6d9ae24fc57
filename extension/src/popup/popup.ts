import { hasSiteAccess, requestSiteAccess } from '../shared/browser-compat.ts';
import type { PageCommand } from '../shared/messages.ts';

/** The toolbar popup: commands for the page in the active tab. */
async function tellActiveTab(command: PageCommand): Promise<void> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (tab?.id !== undefined) await chrome.tabs.sendMessage(tab.id, command).catch(() => {});
  window.close();
}

document.querySelector('#translate')!.addEventListener('click', () => void tellActiveTab({ type: 'translate-page' }));
document.querySelector('#toggle')!.addEventListener('click', () => void tellActiveTab({ type: 'toggle-translation' }));
document.querySelector('#options')!.addEventListener('click', () => void chrome.runtime.openOptionsPage());

/** Without site access no page has the content script: the popup says so and offers to ask (Firefox lets the learner revoke it). */
async function showSiteAccess(): Promise<void> {
  const missing = !(await hasSiteAccess());
  document.querySelector<HTMLElement>('#no-site-access')!.hidden = !missing;
  document.querySelector<HTMLElement>('#allow-sites')!.hidden = !missing;
}
document.querySelector('#allow-sites')!.addEventListener('click', () => void requestSiteAccess().then(showSiteAccess));
void showSiteAccess();
