import { openShortcutSettings } from '../shared/browser-compat.ts';
import { checkConnection } from '../shared/connection-check.ts';
import { serviceAddressProblem } from '../shared/service-address.ts';
import { loadSettings, saveSettings, type Settings } from '../shared/settings.ts';
import { showSiteAccess } from './site-access.ts';

const form = document.querySelector<HTMLFormElement>('#settings')!;
const serviceUrl = document.querySelector<HTMLInputElement>('#service-url')!;
const token = document.querySelector<HTMLInputElement>('#token')!;
const sites = document.querySelector<HTMLTextAreaElement>('#sites')!;
const sendContext = document.querySelector<HTMLInputElement>('#send-context')!;
const countEncounters = document.querySelector<HTMLInputElement>('#count-encounters')!;
const linkToMoment = document.querySelector<HTMLInputElement>('#link-to-moment')!;
const outcome = document.querySelector<HTMLParagraphElement>('#outcome')!;

function say(message: string, ok: boolean): void {
  outcome.textContent = message;
  outcome.dataset.ok = String(ok);
}

function fromForm(): Settings {
  return {
    serviceUrl: serviceUrl.value.trim().replace(/\/+$/, ''),
    token: token.value.trim(),
    autoTranslateSites: sites.value
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    sendContext: sendContext.checked,
    countEncounters: countEncounters.checked,
    linkToMoment: linkToMoment.checked,
  };
}

/**
 * Saves, first asking for access to the service's address when the manifest does not already
 * grant it (only this machine's addresses are granted up front). Must run in the click's turn:
 * the browser asks the learner only during a user gesture.
 */
async function save(): Promise<boolean> {
  const settings = fromForm();
  const refused = serviceAddressProblem(settings.serviceUrl);
  if (refused) {
    say(refused, false);
    serviceUrl.setAttribute('aria-invalid', 'true');
    serviceUrl.focus();
    return false;
  }
  serviceUrl.removeAttribute('aria-invalid');
  const origin = new URL(settings.serviceUrl).origin;
  const access = { origins: [`${origin}/*`] };
  // Asked straight away, before anything is awaited: Firefox honours a request only in the click's own turn (Chromium a
  // little longer), and an address already granted is granted again without a prompt.
  if (!(await chrome.permissions.request(access).catch(() => false))) {
    say(`The extension needs your permission to reach ${origin}.`, false);
    return false;
  }
  await saveSettings(settings);
  return true;
}

async function submit() {
  if (await save()) say('Saved.', true);
}
form.addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});

async function check() {
  if (!(await save())) return;
  say('Checking…', true);
  const { ok, message } = await checkConnection();
  say(message, ok);
}
document.querySelector('#check')!.addEventListener('click', () => void check());

/** The shortcuts as the browser has them (a suggested key the browser refused shows as not set). */
async function listShortcuts(): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('#shortcuts')!;
  const commands = (await chrome.commands.getAll()).filter((command) => command.description);
  list.replaceChildren(
    ...commands.map(({ description, shortcut }) => {
      const item = document.createElement('li');
      const keys = document.createElement('kbd');
      keys.textContent = shortcut || 'not set';
      item.append(keys, ` ${description}`);
      return item;
    }),
  );
}
// A page's link cannot open the browser's own pages; the extension can.
document.querySelector('#change-shortcuts')!.addEventListener('click', () => void openShortcutSettings());
showSiteAccess(document.querySelector('#site-access')!);
void listShortcuts();

const settings = await loadSettings();
serviceUrl.value = settings.serviceUrl;
token.value = settings.token;
sites.value = settings.autoTranslateSites.join('\n');
sendContext.checked = settings.sendContext;
countEncounters.checked = settings.countEncounters;
linkToMoment.checked = settings.linkToMoment;
