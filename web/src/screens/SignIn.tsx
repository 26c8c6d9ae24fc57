import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../../src/domain/limits.ts';
import { explain } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link } from '../router.tsx';
import { accountQuery, queryClient, trpcClient } from '../trpc.ts';
import { Field, FormError, textField, useNotify } from '../ui.tsx';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sign-in and sign-up: one form, at /sign-in and /sign-up. */
export function SignIn({ mode }: { mode: 'login' | 'signup' }) {
  const signUp = mode === 'signup';
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const notify = useNotify();
  const submit = useMutation({
    mutationFn: (credentials: { email: string; password: string }) =>
      signUp ? trpcClient.account.signup.mutate(credentials) : trpcClient.account.login.mutate(credentials),
    onSuccess: (account) => queryClient.setQueryData(accountQuery.queryKey, account),
    onError: (error) => {
      const explained = explain(error, { unauthenticated: 'Email or password is wrong.' });
      setFields(explained.fields);
      setMessage(Object.keys(explained.fields).length ? '' : explained.message);
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = textField(form, 'email').trim();
    const password = textField(form, 'password');
    // The rules the service applies, checked here first so the answer is immediate.
    const found: Record<string, string> = {};
    if (!EMAIL.test(email)) found.email = 'Enter a valid email address.';
    if (signUp && password.length < PASSWORD_MIN_LENGTH) found.password = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
    if (!password) found.password = 'Enter your password.';
    setFields(found);
    setMessage('');
    // An earlier notice (e.g. "signed out on every device") is over once the learner tries again.
    notify('');
    if (Object.keys(found).length === 0) submit.mutate({ email, password });
  };

  return (
    <section className="panel narrow" aria-labelledby="auth-title">
      <h1 id="auth-title" tabIndex={-1}>
        {signUp ? 'Create your account' : 'Sign in'}
      </h1>
      <p className="lead">Keep the English you meet, and practise it until it is yours.</p>
      <form onSubmit={onSubmit} noValidate>
        <Field label="Email" name="email" type="email" autoComplete="email" required error={fields.email} describedBy={message ? 'auth-error' : undefined} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={signUp ? 'new-password' : 'current-password'}
          required
          hint={signUp ? `At least ${PASSWORD_MIN_LENGTH} characters.` : undefined}
          error={fields.password}
          describedBy={message ? 'auth-error' : undefined}
        />
        <FormError id="auth-error" message={message} />
        <div className="actions">
          <button type="submit" className="primary" disabled={submit.isPending}>
            {submit.isPending ? (signUp ? 'Creating…' : 'Signing in…') : signUp ? 'Create account' : 'Sign in'}
          </button>
          <Link className="link" to={signUp ? APP_PATHS.signIn : APP_PATHS.signUp}>
            {signUp ? 'Already have an account? Sign in' : 'New here? Create an account'}
          </Link>
        </div>
      </form>
    </section>
  );
}
