import { useMutation } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { explainField } from '../errors.ts';
import { trpc, trpcClient } from '../trpc.ts';
import { credits } from '../credits.ts';
import { CostBefore, OutOfCredits, refreshCredits } from './Credits.tsx';
import { textBlocksOf } from '../html-blocks.ts';
import { PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';

/** What one request may carry (the service's limits): paragraphs beyond them are not sent. */
const { maxItems: MAX_ITEMS, maxTotalCodePoints: MAX_CHARS } = PAGE_TRANSLATION_LIMITS;

type Translated = inferOutput<typeof trpc.pageTranslation.translate>;

/** The paragraphs of a paste: separated by blank lines, inner line breaks kept as spaces. */
const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/** Page translation, as the extension does it: paste text, read it bilingual, paragraph by paragraph. */
export function Translate({ account }: { account: Account }) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [error, setError] = useState('');
  const [sent, setSent] = useState<string[]>([]);
  const translate = useMutation({
    mutationFn: (paragraphs: string[]) =>
      trpcClient.pageTranslation.translate.mutate({
        request_id: crypto.randomUUID(),
        target_language: account.nativeLanguage!,
        source_language: 'auto',
        items: paragraphs.map((text, i) => ({ id: String(i), text })),
      }),
    onSuccess: () => void refreshCredits(),
    onError: (failure) => setError(explainField(failure, 'items')),
  });
  /** An HTML fragment becomes its text blocks, one paragraph each, in place of the selection; then it reads like pasted text. */
  const insertBlocksOf = (html: string) => {
    const field = textarea.current!;
    field.setRangeText(textBlocksOf(html).join('\n\n'), field.selectionStart, field.selectionEnd, 'end');
    field.focus();
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const html = event.clipboardData.getData('text/html');
    if (!html) return; // plain text pastes as it is
    event.preventDefault();
    insertBlocksOf(html);
  };
  const onDrop = async (event: DragEvent<HTMLTextAreaElement>) => {
    const dropped = event.dataTransfer;
    const file = [...dropped.files].find((f) => f.type === 'text/html' || /\.html?$/i.test(f.name));
    const html = dropped.getData('text/html');
    if (!file && !html) return; // plain text drops as it is
    event.preventDefault();
    insertBlocksOf(file ? await file.text() : html);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const paragraphs = paragraphsOf(textarea.current!.value);
    if (paragraphs.length === 0) return setError('Paste some text first.');
    if (paragraphs.length > MAX_ITEMS) return setError(`That is ${paragraphs.length} paragraphs; at most ${MAX_ITEMS} go at once.`);
    if (Array.from(paragraphs.join('')).length > MAX_CHARS)
      return setError(`That is more than ${MAX_CHARS.toLocaleString('en')} characters; translate it in parts.`);
    setError('');
    setSent(paragraphs);
    translate.mutate(paragraphs);
  };
  return (
    <section className="panel" aria-labelledby="translate-heading">
      <h1 id="translate-heading" tabIndex={-1}>
        Translate a page
      </h1>
      <OutOfCredits waits="Translating new text waits for credits; text translated before is still free." />
      <form onSubmit={onSubmit} noValidate aria-busy={translate.isPending}>
        <label htmlFor="translate-text">Text to read bilingual</label>
        <textarea
          id="translate-text"
          ref={textarea}
          rows={6}
          aria-describedby="translate-hint translate-error"
          aria-invalid={error ? true : undefined}
          placeholder="Paste an article or a page; blank lines separate paragraphs."
          onPaste={onPaste}
          onDrop={(event) => void onDrop(event)}
        />
        <p id="translate-hint" className="hint">
          Each paragraph is shown with its translation, as the browser extension shows a page. Paste or drop part of a web page (or an .html file) and its
          paragraphs, headings and list items are taken as text. <CostBefore kind="page_translation" />
        </p>
        <p id="translate-error" className="field-error" role="alert">
          {error}
        </p>
        <div className="actions">
          <button type="submit" className="primary" disabled={translate.isPending}>
            {translate.isPending ? 'Translating…' : 'Translate'}
          </button>
        </div>
      </form>
      {translate.data && <Bilingual sent={sent} translated={translate.data} lang={account.nativeLanguage ?? undefined} />}
    </section>
  );
}

function Bilingual({ sent, translated, lang }: { sent: string[]; translated: Translated; lang: string | undefined }) {
  return (
    <div className="bilingual" role="region" aria-label="Bilingual text">
      <p className="muted" role="status">
        {/* A text translated before (the same request, or the same paragraphs from the shared cache) costs nothing. */}
        {translated.replayed || translated.credits_charged === 0 ? 'Already translated: nothing charged.' : `Charged ${credits(translated.credits_charged)}.`}
      </p>
      {translated.items.map((item) => (
        <div key={item.id} className="pair">
          <p lang={item.detected_source_language === 'und' ? undefined : item.detected_source_language}>{sent[Number(item.id)]}</p>
          <p lang={lang} className="translation">
            {item.text}
          </p>
        </div>
      ))}
    </div>
  );
}
