// The learner's page: sign in, set languages, capture, browse the library, Replay, tokens.
// Plain ES modules, no build step; every call goes to the same origin (tRPC, /api/auth).
import { busy, byId, formatDay, h, showOnly } from './dom.js';
import { createLibrary } from './library.js';
import { createReplay } from './replay.js';
import { createTokens } from './tokens.js';
import { mutate, query, rest, ServiceError } from './trpc.js';

const screens = { loading: byId('loading'), auth: byId('auth-screen'), setup: byId('setup-screen'), workspace: byId('workspace') };
const state = { account: null, languages: [] };

/** What the sections share: errors that change the screen (401, 428) are handled here once. */
const ctx = {
  get account() { return state.account; },
  notify,
  refreshCredits,
  /** Shows `error` in `target` (or the page notice); returns true when it was handled by a screen change. */
  fail(error, target) {
    if (error instanceof ServiceError && error.code === 'unauthenticated') {
      signedOut('Your session has ended. Please sign in again.');
      return true;
    }
    if (error instanceof ServiceError && error.code === 'language_setup_required') {
      showSetup('Set your languages first, then try again.');
      return true;
    }
    const message = error instanceof ServiceError ? error.message : 'Something went wrong in the page. Please reload it.';
    if (!(error instanceof ServiceError)) console.error(error);
    if (target) target.textContent = message;
    else notify(message, 'error');
    return false;
  },
};

const library = createLibrary(ctx);
const replay = createReplay(ctx);
const tokens = createTokens(ctx);

// ---- notices -------------------------------------------------------------------------------

function notify(message, tone = 'info') {
  const notice = byId('notice');
  notice.textContent = message;
  notice.dataset.tone = tone;
  notice.hidden = !message;
}

// ---- screens -------------------------------------------------------------------------------

function show(screen, focusTarget) {
  showOnly(screens[screen], ...Object.values(screens));
  byId('account-bar').hidden = screen === 'auth' || screen === 'loading';
  focusTarget?.focus();
}

async function boot() {
  try {
    state.languages = (await query('account.languages')).languages;
    state.account = await query('account.me');
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'unauthenticated') return signedOut();
    show('auth');
    return ctx.fail(error);
  }
  signedIn();
}

function signedIn() {
  byId('who').textContent = state.account.email;
  byId('who').title = state.account.email;
  void refreshCredits();
  if (!state.account.targetLanguage || !state.account.nativeLanguage) return showSetup();
  showWorkspace();
}

function signedOut(message = '') {
  state.account = null;
  library.reset();
  replay.reset();
  tokens.reset();
  notify(message, 'error');
  setAuthMode('login');
  show('auth', byId('auth-title'));
}

function showSetup(message = '') {
  notify(message, 'error');
  const slot = byId('setup-form-slot');
  slot.replaceChildren(languageForm('setup', 'Start capturing', () => {
    notify('');
    showWorkspace();
  }));
  show('setup', byId('setup-title'));
}

function showWorkspace() {
  byId('settings-form-slot').replaceChildren(languageForm('settings', 'Save languages', () => notify('Languages saved.')));
  show('workspace');
  selectTab('tab-library', { focus: false });
  byId('capture-text').focus();
}

// ---- sign in / sign up ---------------------------------------------------------------------

let authMode = 'login';
function setAuthMode(mode) {
  authMode = mode;
  const signUp = mode === 'signup';
  byId('auth-title').textContent = signUp ? 'Create your account' : 'Sign in';
  byId('auth-submit').textContent = signUp ? 'Create account' : 'Sign in';
  byId('auth-switch').textContent = signUp ? 'Already have an account? Sign in' : 'New here? Create an account';
  byId('auth-password').autocomplete = signUp ? 'new-password' : 'current-password';
  byId('auth-form').querySelector('.form-error').textContent = '';
}

byId('auth-switch').addEventListener('click', () => {
  setAuthMode(authMode === 'login' ? 'signup' : 'login');
  byId('auth-email').focus();
});

byId('auth-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const errorBox = form.querySelector('.form-error');
  const body = { email: form.email.value.trim(), password: form.password.value };
  errorBox.textContent = '';
  await busy(form, async () => {
    try {
      state.account = await rest('POST', authMode === 'signup' ? '/api/auth/signup' : '/api/auth/login', body);
      form.reset();
      notify('');
      signedIn();
    } catch (error) {
      // Here a 401 means wrong credentials, not an ended session: say so in the form.
      if (error instanceof ServiceError) errorBox.textContent = error.message;
      else ctx.fail(error, errorBox);
    }
  });
});

byId('sign-out').addEventListener('click', async () => {
  try {
    await rest('POST', '/api/auth/logout');
  } catch (error) {
    // An expired session is signed out already; anything else is worth saying.
    if (!(error instanceof ServiceError && error.code === 'unauthenticated')) return ctx.fail(error);
  }
  signedOut('');
  notify('You are signed out.');
});

byId('sign-out-everywhere').addEventListener('click', async () => {
  try {
    await rest('POST', '/api/auth/logout-everywhere', {});
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === 'unauthenticated')) return ctx.fail(error);
  }
  signedOut('');
  notify('You are signed out on every device.');
});

// ---- languages -----------------------------------------------------------------------------

function languageForm(idPrefix, submitLabel, onSaved) {
  const account = state.account;
  const options = (selected) => state.languages.map((l) => h('option', { value: l.tag, selected: l.tag === selected }, l.name));
  const errorBox = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'language-form', novalidate: true },
    h('label', { for: `${idPrefix}-target` }, 'I am learning'),
    h('select', { id: `${idPrefix}-target`, name: 'targetLanguage' }, options(account.targetLanguage ?? 'en')),
    h('label', { for: `${idPrefix}-native` }, 'Translate into (my language)'),
    h('select', { id: `${idPrefix}-native`, name: 'nativeLanguage' }, h('option', { value: '' }, 'Choose…'), options(account.nativeLanguage)),
    errorBox,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, submitLabel)));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errorBox.textContent = '';
    if (!form.nativeLanguage.value) {
      errorBox.textContent = 'Choose the language translations should be written in.';
      return form.nativeLanguage.focus();
    }
    await busy(form, async () => {
      try {
        state.account = await mutate('account.setLanguages', { targetLanguage: form.targetLanguage.value, nativeLanguage: form.nativeLanguage.value });
        onSaved();
      } catch (error) {
        ctx.fail(error, errorBox);
      }
    });
  });
  return form;
}

// ---- credits -------------------------------------------------------------------------------

async function refreshCredits() {
  try {
    const wallet = await query('account.credits');
    byId('credits').textContent = `${wallet.balance.toLocaleString()} credits`;
    byId('credits-detail').textContent = `${wallet.balance.toLocaleString()} of ${wallet.monthlyAllowance.toLocaleString()} credits left on the ${wallet.plan} plan; the allowance renews on ${formatDay(wallet.periodEnd)}.`;
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'unauthenticated') return signedOut('Your session has ended. Please sign in again.');
    byId('credits').textContent = '';
  }
}

// ---- tabs (arrow keys move between them, as in the ARIA tabs pattern) ------------------------

const tabs = [...document.querySelectorAll('[role=tab]')];
const onTabShown = { 'tab-library': () => library.show(), 'tab-replay': () => replay.show(), 'tab-settings': () => tokens.show() };

function selectTab(id, { focus = true } = {}) {
  for (const tab of tabs) {
    const selected = tab.id === id;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    byId(tab.getAttribute('aria-controls')).hidden = !selected;
    if (selected && focus) tab.focus();
  }
  onTabShown[id]();
  void refreshCredits();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab.id));
  tab.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length].id);
  });
}

void boot();
