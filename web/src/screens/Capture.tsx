import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { CAPTURE_TEXT_MAX, CONTEXT_MAX } from '../../../src/domain/limits.ts';
import { explain, explainField } from '../errors.ts';
import { keepCapture } from '../offline-sync.ts';
import { APP_PATHS } from '../paths.ts';
import { navigate } from '../router.tsx';
import { readShare, type Share } from '../share.ts';
import { isUnreachable, trpcClient } from '../trpc.ts';
import { useNotify } from '../ui.tsx';
import { refreshLibrary } from './Library.tsx';

// The share target (web/manifest.ts): another app's share sheet opens /capture?text=&title=&url=.
// Only the text is offered for saving; the link and title are shown, never sent. In a shared
// sentence the learner marks the expression, and the sentence becomes the card's context.

/** A share that is itself an expression rather than a sentence: a few words, no sentence end. */
const looksLikeExpression = (text: string) => text.split(/\s+/).length <= 4 && !/[.!?…]$/.test(text);

export function Capture() {
  const [share] = useState<Share>(() => readShare(location.search));
  const short = looksLikeExpression(share.text);
  const sentenceRef = useRef<HTMLTextAreaElement>(null);
  const [expression, setExpression] = useState(short ? share.text : '');
  const [error, setError] = useState('');
  const notify = useNotify();

  const save = useMutation({
    mutationFn: async ({ text, context }: { text: string; context: string }) => {
      try {
        const { reused } = await trpcClient.library.capture.mutate({ text, ...(context ? { context } : {}) });
        return reused ? 'reused' : 'saved';
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        await keepCapture({ text, ...(context ? { context } : {}) });
        return 'waiting';
      }
    },
    onSuccess: (outcome, { text }) => {
      void refreshLibrary();
      navigate(APP_PATHS.library);
      const said = {
        saved: `Saved “${text}”: it is being prepared.`,
        reused: `“${text}” is already in your library.`,
        waiting: `“${text}” is waiting to be sent: it is saved when you are back online.`,
      } as const;
      notify(said[outcome], 'ok');
    },
    onError: (failure) => setError(explain(failure).fields.context ?? explainField(failure, 'text')),
  });

  const markSelection = () => {
    const area = sentenceRef.current!;
    const marked = area.value.slice(area.selectionStart, area.selectionEnd).trim();
    if (!marked) return setError('Select the expression in the sentence first, then press “Use the selection”.');
    setError('');
    setExpression(marked);
  };
  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const sentence = sentenceRef.current?.value.trim() ?? '';
    const text = expression.trim() || (looksLikeExpression(sentence) ? sentence : '');
    if (!text) return setError('Mark the expression to learn: select it in the sentence and press “Use the selection”, or type it.');
    setError('');
    save.mutate({ text, context: sentence && sentence !== text ? sentence : '' });
  };

  return (
    <section className="panel" aria-labelledby="capture-heading">
      <h1 id="capture-heading" tabIndex={-1}>
        Capture
      </h1>
      {!share.text && share.url ? (
        <p className="notice" data-tone="info">
          Only a link was shared, and a link cannot be learned. Open the page, select the sentence you met the expression in, and share the selected text
          instead; or type it here.
        </p>
      ) : null}
      <form className="capture share" onSubmit={onSave} noValidate>
        {!short && (
          <>
            <label htmlFor="share-sentence">The sentence</label>
            <textarea id="share-sentence" ref={sentenceRef} rows={3} maxLength={CONTEXT_MAX} defaultValue={share.text} aria-describedby="share-how" />
            <p id="share-how" className="hint">
              Select the expression in the sentence and press “Use the selection”: the sentence stays on the card as your example.
            </p>
            <button type="button" onClick={markSelection}>
              Use the selection
            </button>
          </>
        )}
        <label htmlFor="share-expression">The expression to learn</label>
        <input
          id="share-expression"
          value={expression}
          maxLength={CAPTURE_TEXT_MAX}
          autoComplete="off"
          onChange={(event) => setExpression(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby="share-error"
        />
        <p id="share-error" className="field-error" role="alert">
          {error}
        </p>
        {(share.url || share.title) && (
          <p className="hint">Shared from {share.title ? `“${share.title}”` : new URL(share.url).host}. The link and title are not saved with the card.</p>
        )}
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
      </form>
    </section>
  );
}
