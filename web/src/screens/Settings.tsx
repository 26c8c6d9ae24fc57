import { useMutation, useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useRef, useState, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { APP_PATHS } from '../paths.ts';
import { Link } from '../router.tsx';
import { PASSWORD_MIN_LENGTH, TOKEN_NAME_MAX, TOKEN_PREFIX } from '../../../src/domain/limits.ts';
import { explain } from '../errors.ts';
import { forgetAccount, problemOf, queryClient, trpc, trpcClient } from '../trpc.ts';
import { formatDay } from '../time.ts';
import { Field, FormError, SelectField, useNotify, textField } from '../ui.tsx';
import { LanguageForm } from './Languages.tsx';
import { ReplaySettingsForm } from './ReplaySettings.tsx';
import { sendWaitingDeletes } from '../pending-deletes.ts';

type Token = inferOutput<typeof trpc.account.tokens.list>['items'][number];
type CreatedToken = inferOutput<typeof trpc.account.tokens.create>;

const EXPIRY_CHOICES = [
  ['', 'Never'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
] as const;

/** Which host receives what the learner captures, translates or asks a draft for (the deployment's model). */
function LanguageModelNote() {
  const me = useQuery(trpc.account.me.queryOptions());
  const model = me.data?.languageModel;
  return <p className="muted language-model">{model ? model.statement : 'Loading…'}</p>;
}

/** Languages, where the text goes, credits, password, sessions and personal tokens. */
export function Settings({ account }: { account: Account }) {
  const notify = useNotify();
  const signOutEverywhere = useMutation({
    mutationFn: async () => {
      await sendWaitingDeletes();
      return trpcClient.account.logoutEverywhere.mutate({ revokeTokens: false });
    },
    onSuccess: () => {
      forgetAccount();
      notify('You are signed out on every device.');
    },
    onError: (error) => notify(explain(error).message, 'error'),
  });
  return (
    <section className="panel" aria-labelledby="settings-heading">
      <h1 id="settings-heading" tabIndex={-1}>
        Settings
      </h1>
      <h2>Language</h2>
      <LanguageForm account={account} submitLabel="Save language" onSaved={() => notify('Language saved.')} />
      <h2>Replay</h2>
      <ReplaySettingsForm />
      <h2>Credits</h2>
      <p>
        <Link to={APP_PATHS.credits} className="link">
          Your balance, your plan and the ledger
        </Link>
      </p>
      <h2>Where your text goes</h2>
      <LanguageModelNote />
      <h2>Password</h2>
      <PasswordForm />
      <h2>Sessions</h2>
      <p className="muted">Signed in on another device you no longer use? End every session of this account. Personal tokens keep working.</p>
      <button type="button" onClick={() => signOutEverywhere.mutate()} disabled={signOutEverywhere.isPending}>
        Sign out everywhere
      </button>
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted">
        Personal tokens let your own tools (a browser extension, a script) use the service: <code>Authorization: Bearer {TOKEN_PREFIX}…</code>.
      </p>
      <Tokens />
    </section>
  );
}

function PasswordForm() {
  const notify = useNotify();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const change = useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => trpcClient.account.changePassword.mutate({ ...input, revokeTokens: false }),
    onSuccess: ({ sessionsEnded }) => {
      form.current?.reset();
      notify(
        `Password changed. ${sessionsEnded > 1 ? `${sessionsEnded - 1} other session${sessionsEnded === 2 ? ' was' : 's were'} signed out.` : ''}`.trim(),
        'ok',
      );
    },
    onError: (error) => {
      const explained = explain(error);
      if (problemOf(error).code === 'wrong_password') return setFields({ currentPassword: explained.message });
      setFields(explained.fields);
      setMessage(Object.keys(explained.fields).length ? '' : explained.message);
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const currentPassword = textField(data, 'currentPassword');
    const newPassword = textField(data, 'newPassword');
    const found: Record<string, string> = {};
    if (!currentPassword) found.currentPassword = 'Enter your current password.';
    if (newPassword.length < PASSWORD_MIN_LENGTH) found.newPassword = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
    setFields(found);
    setMessage('');
    if (Object.keys(found).length === 0) change.mutate({ currentPassword, newPassword });
  };
  return (
    <form ref={form} className="password-form" onSubmit={onSubmit} noValidate>
      <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" error={fields.currentPassword} />
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={fields.newPassword}
      />
      <FormError message={message} />
      <div className="actions">
        <button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

function Tokens() {
  const notify = useNotify();
  const tokens = useQuery(trpc.account.tokens.list.queryOptions());
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [nameError, setNameError] = useState('');
  const [message, setMessage] = useState('');
  const refresh = () => queryClient.invalidateQueries(trpc.account.tokens.list.pathFilter());
  const create = useMutation(
    trpc.account.tokens.create.mutationOptions({
      onSuccess: (token) => {
        setCreated(token);
        void refresh();
      },
      onError: (error) => {
        const explained = explain(error);
        setNameError(explained.fields.name ?? '');
        setMessage(explained.fields.name ? '' : explained.message);
      },
    }),
  );
  const revoke = useMutation({
    mutationFn: (token: Token) => trpcClient.account.tokens.revoke.mutate({ id: token.id }),
    onSuccess: (_, token) => {
      notify(`Token “${token.name}” revoked.`);
      void refresh();
    },
    onError: (error) => notify(explain(error).message, 'error'),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const name = textField(data, 'tokenName').trim();
    if (!name) return setNameError('Give the token a name, so you recognise it later.');
    setNameError('');
    const expiry = textField(data, 'expiry');
    create.mutate({ name, scope: textField(data, 'scope') as 'read' | 'write', ...(expiry ? { expiresInDays: Number(expiry) } : {}) });
    event.currentTarget.reset();
  };
  const items = tokens.data?.items ?? [];
  return (
    <>
      {created && <CreatedTokenView token={created} onDone={() => setCreated(null)} />}
      <ul className="tokens" aria-labelledby="tokens-title">
        {items.map((token) => (
          <TokenItem
            key={token.id}
            token={token}
            onRevoke={() => {
              if (window.confirm(`Revoke “${token.name}”? Tools using it stop working at once.`)) revoke.mutate(token);
            }}
          />
        ))}
      </ul>
      {tokens.data && items.length === 0 && <p className="muted">You have no tokens yet.</p>}
      <form className="token-form" onSubmit={onSubmit} noValidate>
        <h3>Create a token</h3>
        <Field label="Name" name="tokenName" maxLength={TOKEN_NAME_MAX} placeholder="e.g. browser extension" autoComplete="off" error={nameError} />
        <SelectField label="Access" name="scope">
          <option value="write">Read and write</option>
          <option value="read">Read only</option>
        </SelectField>
        <SelectField label="Expires" name="expiry">
          {EXPIRY_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <FormError message={message} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </form>
    </>
  );
}

function TokenItem({ token, onRevoke }: { token: Token; onRevoke: () => void }) {
  const details = [
    token.scope === 'read' ? 'read only' : 'read and write',
    `created ${formatDay(token.createdAt)}`,
    token.lastUsedAt ? `last used ${formatDay(token.lastUsedAt)}` : 'never used',
    token.revokedAt ? `revoked ${formatDay(token.revokedAt)}` : token.expiresAt ? `expires ${formatDay(token.expiresAt)}` : 'no expiry',
  ];
  return (
    <li className={token.revokedAt ? 'revoked' : ''}>
      <span>
        <strong>{token.name}</strong>
        <span className="muted"> · {details.join(' · ')}</span>
      </span>
      {!token.revokedAt && (
        <button type="button" className="quiet danger" onClick={onRevoke} aria-label={`Revoke token “${token.name}”`}>
          Revoke
        </button>
      )}
    </li>
  );
}

function CreatedTokenView({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const [copyStatus, setCopyStatus] = useState('');
  const secret = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopyStatus('Copied.');
    } catch {
      // Without clipboard permission, select the text so Ctrl+C copies it.
      secret.current?.select();
      setCopyStatus('Press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <div className="new-token">
      <h3 tabIndex={-1} ref={(el) => el?.focus()}>
        Token “{token.name}” created
      </h3>
      <p>Copy it now and keep it somewhere safe: it will not be shown again.</p>
      <label htmlFor="new-token-value" className="visually-hidden">
        New token
      </label>
      {/* Every character shows, wrapped if the screen is narrow. */}
      <textarea id="new-token-value" ref={secret} readOnly value={token.token} className="secret" spellCheck={false} rows={2} />
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <span role="status" className="muted">
        {copyStatus}
      </span>
      <div className="actions">
        <button type="button" className="quiet" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
