import { hasSiteAccess } from '../shared/browser-compat.ts';

/**
 * Without site access no content script runs, so no page can say what is wrong: the toolbar
 * button says it instead (a "!" badge and its tooltip), until the learner grants access.
 */
export async function showSiteAccess(): Promise<void> {
  const granted = await hasSiteAccess();
  await chrome.action.setBadgeText({ text: granted ? '' : '!' });
  await chrome.action.setBadgeBackgroundColor({ color: '#a12838' });
  await chrome.action.setTitle({ title: granted ? 'Language Capture' : 'Language Capture: no access to websites. Open the options to allow it.' });
}
