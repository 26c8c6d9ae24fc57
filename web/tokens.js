// API tokens: list, create (the secret is shown once, with a copy button), revoke.
import { busy, byId, formatDay, h } from './dom.js';
import { mutate, query } from './trpc.js';

const EXPIRY_CHOICES = [['', 'Never'], ['30', 'In 30 days'], ['90', 'In 90 days'], ['365', 'In a year']];

export function createTokens(ctx) {
  const root = byId('tokens-root');
  const list = h('ul', { class: 'tokens', 'aria-labelledby': 'tokens-title' });
  const listMessage = h('p', { class: 'muted', role: 'status' });
  const created = h('div', { class: 'new-token', hidden: true });
  const errorBox = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'token-form', novalidate: true },
    h('h3', {}, 'Create a token'),
    h('div', { class: 'grid' },
      h('label', { for: 'token-name' }, 'Name'),
      h('input', { id: 'token-name', name: 'tokenName', maxlength: 100, placeholder: 'e.g. browser extension', autocomplete: 'off' }),
      h('label', { for: 'token-scope' }, 'Access'),
      h('select', { id: 'token-scope', name: 'scope' },
        h('option', { value: 'write' }, 'Read and write'),
        h('option', { value: 'read' }, 'Read only')),
      h('label', { for: 'token-expiry' }, 'Expires'),
      h('select', { id: 'token-expiry', name: 'expiry' }, EXPIRY_CHOICES.map(([value, label]) => h('option', { value }, label)))),
    errorBox,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create token')));
  let loaded = false;

  function tokenItem(token) {
    const details = [
      token.scope === 'read' ? 'read only' : 'read and write',
      `created ${formatDay(token.createdAt)}`,
      token.lastUsedAt ? `last used ${formatDay(token.lastUsedAt)}` : 'never used',
      token.revokedAt ? `revoked ${formatDay(token.revokedAt)}` : token.expiresAt ? `expires ${formatDay(token.expiresAt)}` : 'no expiry',
    ];
    return h('li', { class: token.revokedAt ? 'revoked' : '' },
      h('span', {}, h('strong', {}, token.name), h('span', { class: 'muted' }, ` · ${details.join(' · ')}`)),
      !token.revokedAt && h('button', { type: 'button', class: 'quiet danger', onclick: () => revoke(token), 'aria-label': `Revoke token “${token.name}”` }, 'Revoke'));
  }

  async function load() {
    try {
      const { items } = await query('account.tokens.list');
      list.replaceChildren(...items.map(tokenItem));
      listMessage.textContent = items.length === 0 ? 'You have no tokens yet.' : '';
      loaded = true;
    } catch (error) {
      ctx.fail(error, listMessage);
    }
  }

  async function revoke(token) {
    if (!window.confirm(`Revoke “${token.name}”? Tools using it stop working at once.`)) return;
    try {
      await mutate('account.tokens.revoke', { id: token.id });
      ctx.notify(`Token “${token.name}” revoked.`);
      await load();
    } catch (error) {
      ctx.fail(error);
    }
  }

  function showCreated(token) {
    const secret = h('input', { id: 'new-token-value', readonly: true, value: token.token, class: 'secret', spellcheck: 'false' });
    const copyStatus = h('span', { role: 'status', class: 'muted' });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(token.token);
      } catch {
        // Without clipboard permission, select the text so Ctrl+C copies it.
        secret.select();
        return void (copyStatus.textContent = 'Press Ctrl+C (⌘C) to copy.');
      }
      copyStatus.textContent = 'Copied.';
    };
    created.replaceChildren(
      h('h3', { tabindex: '-1' }, `Token “${token.name}” created`),
      h('p', {}, 'Copy it now and keep it somewhere safe: it will not be shown again.'),
      h('label', { for: 'new-token-value', class: 'visually-hidden' }, 'New token'),
      h('div', { class: 'row' }, secret, h('button', { type: 'button', onclick: copy }, 'Copy')),
      copyStatus,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'quiet', onclick: () => { created.hidden = true; created.replaceChildren(); form.tokenName.focus(); } }, 'Done')));
    created.hidden = false;
    created.querySelector('h3').focus();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errorBox.textContent = '';
    const name = form.tokenName.value.trim();
    if (!name) {
      errorBox.textContent = 'Give the token a name, so you recognise it later.';
      return form.tokenName.focus();
    }
    const input = { name, scope: form.scope.value, ...(form.expiry.value ? { expiresInDays: Number(form.expiry.value) } : {}) };
    await busy(form, async () => {
      try {
        const token = await mutate('account.tokens.create', input);
        form.reset();
        showCreated(token);
        await load();
      } catch (error) {
        ctx.fail(error, errorBox);
      }
    });
  });

  root.replaceChildren(created, list, listMessage, form);

  return {
    show() { if (!loaded) void load(); },
    reset() { loaded = false; list.replaceChildren(); created.hidden = true; created.replaceChildren(); listMessage.textContent = ''; },
  };
}
