import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { credits } from '../credits.ts';
import { explainField } from '../errors.ts';
import { Link } from '../router.tsx';
import { trpc, trpcClient } from '../trpc.ts';
import { SelectField, textField } from '../ui.tsx';
import { CostBefore, OutOfCredits, refreshCredits } from './Credits.tsx';
import { cardPath } from './Library.tsx';
import { DRAFT_PROMPT_MAX } from '../../../src/domain/limits.ts';
import type { Tone } from '../../../src/features/drafts/schemas.ts';

/** A draft (the spec's Output Flow): say what you mean in any language; get English, notes, and the cards it used. */
export function Draft() {
  const prompt = useRef<HTMLTextAreaElement>(null);
  const [error, setError] = useState('');
  const draft = useMutation({
    mutationFn: (input: { prompt: string; tone: Tone; useLibrary: boolean }) =>
      trpcClient.drafts.create.mutate({ ...input, idempotencyKey: crypto.randomUUID() }),
    onSuccess: () => void refreshCredits(),
    onError: (failure) => setError(explainField(failure, 'prompt')),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = textField(data, 'prompt').trim();
    if (!text) return setError('Say what you mean first, in any language.');
    if (Array.from(text).length > DRAFT_PROMPT_MAX) return setError(`Keep it under ${DRAFT_PROMPT_MAX} characters.`);
    setError('');
    draft.mutate({ prompt: text, tone: textField(data, 'tone') as Tone, useLibrary: data.get('useLibrary') === 'on' });
  };
  const result = draft.data;
  return (
    <section className="panel" aria-labelledby="draft-heading">
      <h1 id="draft-heading" tabIndex={-1}>
        Draft English
      </h1>
      <OutOfCredits waits="New drafts wait for credits." />
      <form onSubmit={onSubmit} noValidate aria-busy={draft.isPending}>
        <label htmlFor="draft-prompt">What do you want to say?</label>
        <textarea
          id="draft-prompt"
          name="prompt"
          ref={prompt}
          rows={4}
          aria-describedby="draft-hint draft-error"
          aria-invalid={error ? true : undefined}
          placeholder="In any language: e.g. Tell my landlord the heating is broken again."
        />
        <p id="draft-hint" className="hint">
          You get English to use, notes on the choices made, and the expressions of your library it drew on. <CostBefore kind="work" />
        </p>
        <p id="draft-error" className="field-error" role="alert">
          {error}
        </p>
        <SelectField label="Tone" name="tone" defaultValue="neutral">
          <option value="neutral">Neutral</option>
          <option value="formal">Formal</option>
          <option value="casual">Casual</option>
        </SelectField>
        <label className="check">
          <input type="checkbox" name="useLibrary" /> Use expressions from my library
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={draft.isPending}>
            {draft.isPending ? 'Drafting…' : 'Draft it'}
          </button>
        </div>
      </form>
      {result && (
        <div className="draft" role="region" aria-label="Draft">
          <h2>Your English</h2>
          <p className="draft-english" lang="en">
            {result.english}
          </p>
          {result.notes.length > 0 && (
            <>
              <h3>Notes</h3>
              <ul>
                {result.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            </>
          )}
          {result.usedCardIds.length > 0 && (
            <>
              <h3>From your library</h3>
              <ul className="used-cards">
                {result.usedCardIds.map((id, i) => (
                  <li key={id}>
                    <CardName cardId={id} fallback={`Card ${i + 1}`} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="muted" role="status">
            {result.creditsCharged === 0 ? 'Drafted before: nothing charged.' : `Charged ${credits(result.creditsCharged)}.`}
          </p>
        </div>
      )}
    </section>
  );
}

/** A card used by the draft, named by its English, linked to its details. */
function CardName({ cardId, fallback }: { cardId: string; fallback: string }) {
  const card = useQuery(trpc.library.get.queryOptions({ cardId })).data?.card;
  return (
    <Link to={cardPath(cardId)} className="link" lang="en">
      {card ? (card.enrichment?.correctedText ?? card.text) : fallback}
    </Link>
  );
}
