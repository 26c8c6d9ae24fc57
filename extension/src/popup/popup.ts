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
