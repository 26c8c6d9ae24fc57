import { checkConnection } from '../shared/connection-check.ts';
import { loadSettings, saveSettings, type Settings } from '../shared/settings.ts';

const form = document.querySelector<HTMLFormElement>('#settings')!;
const serviceUrl = document.querySelector<HTMLInputElement>('#service-url')!;
const token = document.querySelector<HTMLInputElement>('#token')!;
const sites = document.querySelector<HTMLTextAreaElement>('#sites')!;
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
  };
}

/**
 * Saves, first asking for access to the service's address when the manifest does not already
 * grant it (only this machine's addresses are granted up front). Must run in the click's turn:
 * the browser asks the learner only during a user gesture.
 */
async function save(): Promise<boolean> {
  const settings = fromForm();
  let origin: string;
  try {
    origin = new URL(settings.serviceUrl).origin;
  } catch {
    say('The service URL is not a web address (e.g. http://localhost:3000).', false);
    return false;
  }
  const access = { origins: [`${origin}/*`] };
  if (!(await chrome.permissions.contains(access)) && !(await chrome.permissions.request(access))) {
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

const settings = await loadSettings();
serviceUrl.value = settings.serviceUrl;
token.value = settings.token;
sites.value = settings.autoTranslateSites.join('\n');
