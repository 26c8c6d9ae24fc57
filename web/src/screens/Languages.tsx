import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { explain } from '../errors.ts';
import { accountQuery, queryClient, trpc } from '../trpc.ts';
import { FormError, SelectField, textField } from '../ui.tsx';

/**
 * The learner's one language choice: the language translations and notes are written in.
 * What is captured is English, so the target language is always English.
 */
export function LanguageForm({ account, submitLabel, onSaved }: { account: Account; submitLabel: string; onSaved: () => void }) {
  const languages = useQuery(trpc.account.languages.queryOptions(undefined, { staleTime: Infinity }));
  const [message, setMessage] = useState('');
  const save = useMutation(
    trpc.account.setLanguages.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(accountQuery.queryKey, saved);
        onSaved();
      },
      onError: (error) => setMessage(explain(error).message),
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const nativeLanguage = textField(new FormData(event.currentTarget), 'nativeLanguage');
    if (!nativeLanguage) return setMessage('Choose the language translations should be written in.');
    setMessage('');
    save.mutate({ targetLanguage: 'en', nativeLanguage });
  };
  const choices = (languages.data?.languages ?? []).filter((l) => l.tag !== 'en');
  return (
    <form className="language-form" onSubmit={onSubmit} noValidate>
      <p className="muted">You capture English. Translations, notes and Replay prompts are written in your language.</p>
      <SelectField label="My language" name="nativeLanguage" defaultValue={account.nativeLanguage ?? ''} key={choices.length}>
        <option value="">Choose…</option>
        {choices.map((l) => (
          <option key={l.tag} value={l.tag}>
            {l.name}
          </option>
        ))}
      </SelectField>
      <FormError message={message} />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
