import { useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useRef, useState, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { explain, explainField } from '../errors.ts';
import { SENTENCE_MAX_CHARS } from '../../../src/domain/limits.ts';
import { BUSY_RETRIES, busyWaitMs, linesOf, settled, tooLong, type LineState } from '../sentences.ts';
import { formatDay } from '../time.ts';
import { problemOf, queryClient, trpc, trpcClient } from '../trpc.ts';
import { PlayAudio } from './Audio.tsx';
import { fallbackPoll, pendingIn, useStatusStream } from '../live-status.ts';
import { CostAfter, CostBefore, OutOfCredits, refreshCredits } from './Credits.tsx';

type Sentence = inferOutput<typeof trpc.sentences.list>['items'][number];
interface Line {
  text: string;
  state: LineState;
}

const PAGE_SIZE = 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refreshSentences = () => queryClient.invalidateQueries(trpc.sentences.list.pathFilter());

const LINE_WORDS: Record<LineState['kind'], string> = {
  waiting: 'Waiting',
  sending: 'Sending…',
  saved: 'Saved',
  duplicate: 'Already in your sentences',
  'no-credits': 'Not sent: out of credits',
  busy: 'Busy; trying again shortly…',
  refused: '',
};
const STATUS_WORDS: Record<Sentence['status'], string> = { pending: 'Translating…', translated: 'Translated', failed: 'Translation failed' };

/** One sentence at a time (answered with its translation), or many lines at once in the background. */
export function Sentences({ account }: { account: Account }) {
  const live = useStatusStream();
  const list = useQuery(
    trpc.sentences.list.queryOptions(
      { page: 1, pageSize: PAGE_SIZE },
      {
        refetchInterval: (query) => fallbackPoll(pendingIn.sentences(query.state.data), live),
      },
    ),
  );
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState('');
  const [single, setSingle] = useState<Sentence | null>(null);
  const [busy, setBusy] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);

  const setLine = (i: number, state: LineState) => setLines((old) => old.map((line, j) => (j === i ? { ...line, state } : line)));

  /** Sends one line in the background mode; 402 stops the rest, 409 and 429 are that line's own. */
  const sendLine = async (text: string, i: number): Promise<'go-on' | 'stop'> => {
    for (let attempt = 1; ; attempt += 1) {
      setLine(i, { kind: 'sending' });
      try {
        const { sentence } = await trpcClient.sentences.create.mutate({ original_text: text, mode: 'async' });
        setLine(i, { kind: 'saved', sentenceId: sentence.id });
        return 'go-on';
      } catch (failure) {
        const { code } = problemOf(failure);
        if (code === 'insufficient_credits') return (setLine(i, { kind: 'no-credits' }), 'stop');
        if (code === 'duplicate_sentence') return (setLine(i, { kind: 'duplicate' }), 'go-on');
        if (code === 'rate_limited' && attempt <= BUSY_RETRIES) {
          setLine(i, { kind: 'busy', attempt });
          await pause(busyWaitMs(attempt));
          continue;
        }
        setLine(i, { kind: 'refused', message: explainField(failure, 'original_text') });
        return 'go-on';
      }
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = linesOf(textarea.current!.value);
    if (found.length === 0) return setError('Type or paste a sentence first.');
    const long = found.findIndex(tooLong);
    if (long >= 0) return setError(`Line ${long + 1} is longer than ${SENTENCE_MAX_CHARS} characters: split it, or shorten it.`);
    setError('');
    setSingle(null);
    setBusy(true);
    if (found.length === 1) {
      setLines([]);
      try {
        const { sentence } = await trpcClient.sentences.create.mutate({ original_text: found[0]!, mode: 'sync' });
        setSingle(sentence);
        textarea.current!.value = '';
      } catch (failure) {
        setError(explainField(failure, 'original_text'));
      }
    } else {
      setLines(found.map((text) => ({ text, state: { kind: 'waiting' } })));
      textarea.current!.value = '';
      for (const [i, text] of found.entries()) {
        if ((await sendLine(text, i)) === 'stop') {
          setLines((old) => old.map((line, j) => (j > i ? { ...line, state: { kind: 'no-credits' } } : line)));
          break;
        }
      }
    }
    setBusy(false);
    void refreshSentences();
    void refreshCredits();
  };

  const byId = new Map((list.data?.items ?? []).map((s) => [s.id, s]));
  const done = lines.filter((line) => settled(line.state)).length;
  const translated = lines.filter((line) => line.state.kind === 'saved' && byId.get(line.state.sentenceId)?.status === 'translated').length;
  return (
    <section className="panel" aria-labelledby="sentences-heading">
      <h1 id="sentences-heading" tabIndex={-1}>
        Sentences
      </h1>
      <OutOfCredits waits="Translating sentences waits for credits: a sentence you send now is not saved." />
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={busy}>
        <label htmlFor="sentences-text">Sentences, one per line</label>
        <textarea
          id="sentences-text"
          ref={textarea}
          rows={4}
          lang="en"
          aria-describedby="sentences-hint sentences-error"
          aria-invalid={error ? true : undefined}
          placeholder="One sentence is translated at once; many lines are translated in the background."
        />
        <p id="sentences-hint" className="hint">
          Each line is saved with its translation into your language (up to {SENTENCE_MAX_CHARS} characters a line). <CostBefore kind="sentence_translation" />
        </p>
        <p id="sentences-error" className="field-error" role="alert">
          {error}
        </p>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Sending…' : 'Translate and save'}
          </button>
        </div>
      </form>

      {single && (
        <div className="result" role="status">
          <p lang="en">
            <strong>{single.original_text}</strong>
          </p>
          <p lang={account.nativeLanguage ?? undefined}>{single.translation ?? STATUS_WORDS[single.status]}</p>
          <CostAfter refId={single.id} />
        </div>
      )}

      {lines.length > 0 && (
        <div className="upload" role="region" aria-label="Upload">
          <label htmlFor="upload-progress">
            Sent {done} of {lines.length} · translated {translated}
          </label>
          <progress id="upload-progress" max={lines.length} value={done} />
          <ol className="upload-lines">
            {lines.map((line, i) => {
              const sentence = line.state.kind === 'saved' ? byId.get(line.state.sentenceId) : undefined;
              const words = sentence ? STATUS_WORDS[sentence.status] : line.state.kind === 'refused' ? line.state.message : LINE_WORDS[line.state.kind];
              return (
                <li key={i} data-state={sentence?.status ?? line.state.kind}>
                  <span lang="en">{line.text}</span> <span className="line-state">{words}</span>
                  {sentence?.translation && (
                    <span className="line-translation" lang={sentence.native_language}>
                      {sentence.translation}
                    </span>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
      )}

      <h2 id="sentence-list-title">Your sentences</h2>
      {list.isError && <p className="form-error">{explain(list.error).message}</p>}
      {list.data?.total === 0 && <p className="muted">No sentences yet.</p>}
      <ul className="sentences" aria-labelledby="sentence-list-title">
        {(list.data?.items ?? []).map((s) => (
          <li key={s.id}>
            <p lang="en" className="sentence-text">
              {s.original_text}
            </p>
            <p lang={s.native_language} className="translation">
              {s.translation ?? STATUS_WORDS[s.status]}
            </p>
            <p className="muted sentence-foot">
              {formatDay(s.created_at)} <PlayAudio subject={{ sentenceId: s.id }} label={s.original_text} />
            </p>
          </li>
        ))}
      </ul>
      {list.data && list.data.total > PAGE_SIZE && (
        <p className="muted">
          The {PAGE_SIZE} newest of {list.data.total}.
        </p>
      )}
    </section>
  );
}
