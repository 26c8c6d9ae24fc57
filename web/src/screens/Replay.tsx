import { useMutation } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { Fragment, useEffect, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import type { Account } from '../App.tsx';
import { explain } from '../errors.ts';
import { isUnreachable, trpc, trpcClient } from '../trpc.ts';
import { holdUpdate } from '../pwa.ts';
import { keepSession, keptSession } from '../offline-store.ts';
import { answersWaiting, keepAnswer, sendQueued } from '../offline-sync.ts';
import { PlayAudio } from './Audio.tsx';
import { refreshForecast, ReplayOverview, type Count, type Outcome, type Result } from './ReplayOverview.tsx';
import { OutOfCredits } from './Credits.tsx';
import { dueFromNow, formatDateTime } from '../time.ts';
import { refreshCard } from './Library.tsx';
import { REPLAY_DURATION_MAX_MS } from '../../../src/domain/limits.ts';

// Replay: rebuild each expression from its translation, with the service's mask ('_' hidden,
// '.' shown). One input per hidden run, a slot drawn per hidden letter; checks are case-insensitive. The evidence sent back:
// usedHint (a letter was revealed), autoFilled ("show answer"), unaidedErrors (letters wrong or
// missing, summed over the checks that failed).

type Session = inferOutput<typeof trpc.replay.session>;
type Item = Session['items'][number];
type Segment = { shown: string } | { hidden: string };

const RATING_HEADLINE: Record<Result['rating'], string> = {
  easy: 'Perfect: effortless recall.',
  good: 'Good recall.',
  hard: 'Got it, with some help.',
  again: 'This one comes back soon.',
};

/** The longest duration the service takes (a day): a page left open longer is simply slow. */

/** Code points, not UTF-16 units: the service's masks are counted in code points. */
const codePoints = (text: string) => Array.from(text);
const same = (a: string, b: string) => a.normalize('NFC').toLocaleLowerCase() === b.normalize('NFC').toLocaleLowerCase();

/** The answer as shown text and hidden runs: [{ shown: 'b' }, { hidden: 'rea' }, …]. */
function segmentsOf(answer: string, mask: string): Segment[] {
  const flags = codePoints(mask);
  const segments: Segment[] = [];
  codePoints(answer).forEach((char, i) => {
    const kind = flags[i] === '_' ? 'hidden' : 'shown';
    const last = segments.at(-1);
    if (last && kind in last) (last as Record<string, string>)[kind] += char;
    else segments.push(kind === 'hidden' ? { hidden: char } : { shown: char });
  });
  return segments;
}

/**
 * The segments grouped into words: a shown run's spaces end one word and begin the next (a hidden
 * run never holds a space), each piece keeping its segment's index.
 */
function wordsOf(segments: Segment[]): { segment: Segment; k: number }[][] {
  const words: { segment: Segment; k: number }[][] = [[]];
  segments.forEach((segment, k) => {
    if (!('shown' in segment)) return words.at(-1)!.push({ segment, k });
    segment.shown.split(' ').forEach((piece, p) => {
      if (p > 0) words.push([]);
      if (piece) words.at(-1)!.push({ segment: { shown: piece }, k: k * 1000 + p });
    });
  });
  return words.filter((word) => word.length > 0);
}

/** Letters typed wrong or left out: the service weighs errors against the number of hidden letters. */
function mistakes(typed: string, expected: string): number {
  const a = codePoints(typed.trim());
  const b = codePoints(expected);
  let count = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) if (!same(a[i] ?? '', b[i] ?? '')) count += 1;
  return count;
}

/** Which prompt the learner practises with when an item offers both: remembered on this device. */
type PromptChoice = 'translation' | 'context';
const PROMPT_KEY = 'lcs.replay.prompt';
const savedPrompt = (): PromptChoice => (localStorage.getItem(PROMPT_KEY) === 'context' ? 'context' : 'translation');

/** What became of an answer: the service's result, or kept on the device until the network returns. */
type Answered = Outcome | 'kept';

const OFFLINE_WITHOUT_SESSION = 'You are offline, and no Replay session is kept on this device. Open Replay once online: its next items stay with you.';

/**
 * Opens (or resumes) a session online, first sending what waits, and keeps its items on the device;
 * offline, the session kept last time goes on where it was left.
 */
async function openSession(userId: string, count: Count): Promise<Session & { offline: boolean }> {
  await sendQueued();
  try {
    const opened = await trpcClient.replay.session.query({ count });
    if (opened.sessionId) await keepSession(userId, opened.sessionId, opened.items);
    return { ...opened, offline: false };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const kept = await keptSession(userId);
    if (!kept) throw new Error(OFFLINE_WITHOUT_SESSION, { cause: error });
    return { sessionId: kept.sessionId, resumed: true, items: kept.items, offline: true };
  }
}

export function Replay({ account }: { account: Account }) {
  const [prompt, setPrompt] = useState<PromptChoice>(savedPrompt);
  const choosePrompt = (choice: PromptChoice) => {
    localStorage.setItem(PROMPT_KEY, choice);
    setPrompt(choice);
  };
  const [session, setSession] = useState<{ items: Item[]; index: number; resumed: boolean; offline: boolean; outcomes: Answered[]; tries: number } | null>(
    null,
  );
  // A new version of the app is not offered while a session is under way (web/src/pwa.ts).
  const practising = session !== null;
  useEffect(() => (practising ? holdUpdate() : undefined), [practising]);
  const [finished, setFinished] = useState<Outcome[] | null>(null);
  const [startMessage, setStartMessage] = useState('');
  const open = useMutation({
    mutationFn: (count: Count) => openSession(account.userId, count),
    onSuccess: (opened) => {
      // Nothing left after all (practised elsewhere meanwhile): the overview says what comes next.
      if (opened.items.length === 0) return void refreshForecast();
      setSession({ items: opened.items, index: 0, resumed: opened.resumed, offline: opened.offline, outcomes: [], tries: 0 });
    },
    onError: (error) => setStartMessage(error.message === OFFLINE_WITHOUT_SESSION ? error.message : explain(error).message),
  });
  const outcome = session?.outcomes[session.index] ?? null;
  // A rating taken back: the item is open again (same mask) and its schedule as before.
  const undo = useMutation(
    trpc.replay.undo.mutationOptions({
      onSuccess: ({ item }) => {
        if (!session) return;
        setSession({
          ...session,
          items: session.items.map((it, i) => (i === session.index ? item : it)),
          outcomes: session.outcomes.slice(0, session.index),
          tries: session.tries + 1,
        });
        void refreshCard(item.cardId);
        void refreshForecast();
      },
      onError: (error) => setStartMessage(explain(error).message),
    }),
  );

  const onStart = (count: Count) => {
    setStartMessage('');
    setFinished(null);
    open.mutate(count);
  };
  const next = () => {
    if (!session) return;
    if (session.index + 1 < session.items.length) return setSession({ ...session, index: session.index + 1 });
    setFinished(session.outcomes.filter((o) => o !== 'kept'));
    setSession(null);
    void refreshForecast();
  };
  const record = (done: Answered | null) => {
    if (!session) return;
    if (!done) return next();
    setSession({ ...session, outcomes: [...session.outcomes.slice(0, session.index), done] });
    if (done === 'kept') return;
    // The card's scheduling changed: its details and the forecast are read again.
    void refreshCard(done.result.cardId);
    void refreshForecast();
  };

  let body;
  if (session && outcome === 'kept')
    body = <KeptFeedback answer={session.items[session.index]!.answer} last={session.index === session.items.length - 1} onNext={next} />;
  else if (session && outcome && outcome !== 'kept')
    body = (
      <Feedback
        outcome={outcome}
        last={session.index === session.items.length - 1}
        lang={account.nativeLanguage}
        onNext={next}
        onUndo={() => undo.mutate({ itemId: outcome.result.itemId })}
        undoing={undo.isPending}
      />
    );
  else if (session) {
    body = (
      <ItemForm
        key={`${session.items[session.index]!.itemId}/${session.tries}/${prompt}`}
        item={session.items[session.index]!}
        prompt={prompt}
        onPrompt={choosePrompt}
        lang={account.nativeLanguage}
        progress={`Item ${session.index + 1} of ${session.items.length}${session.offline ? ' (offline)' : session.resumed ? ' (resumed session)' : ''}`}
        onDone={record}
      />
    );
  } else body = <ReplayOverview outcomes={finished} message={startMessage} starting={open.isPending} onStart={onStart} />;
  return (
    <section className="panel" aria-labelledby="replay-heading">
      <h1 id="replay-heading" tabIndex={-1}>
        Replay
      </h1>
      {!session && <OutOfCredits waits="Replay is free: practise as usual. New captures wait for their translation and notes, so they join Replay later." />}
      {body}
    </section>
  );
}

function ItemForm({
  item,
  prompt,
  onPrompt,
  lang,
  progress,
  onDone,
}: {
  item: Item;
  prompt: PromptChoice;
  onPrompt: (choice: PromptChoice) => void;
  lang: string | null;
  progress: string;
  onDone: (outcome: Answered | null) => void;
}) {
  // The learner's own sentence, when they chose it and the item has one: the expression as the sentence writes it, under its own mask.
  const cloze = prompt === 'context' ? (item.context ?? null) : null;
  const segments = segmentsOf(cloze?.answer ?? item.answer, cloze?.mask ?? item.mask);
  const hidden = segments.flatMap((s) => ('hidden' in s ? [s.hidden] : []));
  const [values, setValues] = useState<string[]>(() => hidden.map(() => ''));
  const [invalid, setInvalid] = useState<boolean[]>(() => hidden.map(() => false));
  const [status, setStatus] = useState('');
  const evidence = useRef({ usedHint: false, autoFilled: false, unaidedErrors: 0 });
  /** The answer as first checked wrong, blanks as '_': shown beside the answer afterwards. */
  const firstTry = useRef<string | null>(null);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const shownAt = useRef(0);
  useEffect(() => {
    shownAt.current = performance.now();
    inputs.current[0]?.focus();
  }, []);

  const complete = useMutation({
    // durationMs: from showing the item to answering; a fluent recall may rate easy, a slow one good.
    // Offline, or with earlier answers still waiting (they go first), the answer is kept with the time it was given.
    mutationFn: async (): Promise<Answered> => {
      const completion = {
        itemId: item.itemId,
        ...evidence.current,
        prompt: cloze ? ('context' as const) : ('translation' as const),
        durationMs: Math.min(Math.round(performance.now() - shownAt.current), REPLAY_DURATION_MAX_MS),
      };
      const answeredAt = new Date().toISOString();
      if (!navigator.onLine || answersWaiting()) return keepAnswer({ ...completion, answeredAt }).then(() => 'kept');
      try {
        return { result: await trpcClient.replay.complete.mutate(completion), firstTry: firstTry.current };
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        return keepAnswer({ ...completion, answeredAt }).then(() => 'kept');
      }
    },
    onSuccess: (answered) => onDone(answered),
    onError: (error) => {
      const explained = explain(error, { not_found: 'This expression was deleted meanwhile; moving on.' });
      setStatus(explained.message);
      if (explained.message.endsWith('moving on.')) onDone(null);
    },
  });

  const setValue = (i: number, value: string) => {
    setValues((old) => old.map((v, j) => (j === i ? value : v)));
    setInvalid((old) => old.map((v, j) => (j === i ? false : v)));
    if (codePoints(value).length >= codePoints(hidden[i]!).length) inputs.current[i + 1]?.focus();
  };
  const hint = () => {
    const i = hidden.findIndex((expected, j) => !same(values[j]!, expected));
    if (i < 0) return setStatus('Everything is filled in: press Check.');
    const typed = codePoints(values[i]!);
    const expected = codePoints(hidden[i]!);
    let keep = 0;
    while (keep < typed.length && same(typed[keep]!, expected[keep]!)) keep += 1;
    setValues((old) => old.map((v, j) => (j === i ? expected.slice(0, keep + 1).join('') : v)));
    evidence.current.usedHint = true;
    inputs.current[i]?.focus();
    setStatus(`Hint: the next letter is “${expected[keep]}”.`);
  };
  const showAnswer = () => {
    setValues(hidden);
    evidence.current.autoFilled = true;
    complete.mutate();
  };
  const onCheck = (event: FormEvent) => {
    event.preventDefault();
    const wrong = hidden.map((expected, i) => !same(values[i]!.trim(), expected));
    if (!wrong.includes(true)) return complete.mutate();
    let run = -1;
    firstTry.current ??= segments.map((seg) => ('shown' in seg ? seg.shown : values[(run += 1)]!.trim() || '_'.repeat(codePoints(seg.hidden).length))).join('');
    evidence.current.unaidedErrors += hidden.reduce((sum, expected, i) => sum + (wrong[i] ? mistakes(values[i]!, expected) : 0), 0);
    setInvalid(wrong);
    inputs.current[wrong.indexOf(true)]?.focus();
    const count = wrong.filter(Boolean).length;
    setStatus(`Not quite: ${count === 1 ? 'one part is' : `${count} parts are`} off. Try again, or take a hint.`);
  };

  let run = -1;
  const pattern = segments.map((s) => ('shown' in s ? s.shown : '…')).join('');
  return (
    <form className="replay-item" onSubmit={onCheck} noValidate aria-busy={complete.isPending}>
      <p className="progress muted">{progress}</p>
      {item.metSinceReview && <p className="met-badge">You met this on a page since your last review.</p>}
      {item.context && (
        <div className="prompt-choice" role="group" aria-label="Prompt">
          <button type="button" aria-pressed={!cloze} onClick={() => onPrompt('translation')}>
            Translation
          </button>
          <button type="button" aria-pressed={Boolean(cloze)} onClick={() => onPrompt('context')}>
            My sentence
          </button>
        </div>
      )}
      {cloze ? (
        <p className="prompt-label">Complete your own sentence:</p>
      ) : (
        <>
          <p className="prompt-label">Say it in English:</p>
          <blockquote className="prompt" lang={lang ?? undefined}>
            {item.prompt}
          </blockquote>
        </>
      )}
      <fieldset>
        <legend>Fill in the missing letters</legend>
        <p className="visually-hidden">Pattern: {pattern}</p>
        <p className={cloze ? 'masked in-context' : 'masked'} lang="en">
          {cloze && <span className="around">{cloze.before}</span>}
          {wordsOf(segments).map((word, w) => (
            // A word's letters and slots never part at a line's end; the spaces between words may.
            <Fragment key={w}>
              {w > 0 && (
                <span className="gap" aria-hidden="true">
                  {' '}
                </span>
              )}
              <span className="word">
                {word.map(({ segment, k }) => {
                  if ('shown' in segment)
                    return (
                      <span key={k} className="shown" aria-hidden="true">
                        {segment.shown}
                      </span>
                    );
                  const i = (run += 1);
                  const length = codePoints(segment.hidden).length;
                  return (
                    <input
                      key={k}
                      ref={(el) => {
                        inputs.current[i] = el;
                      }}
                      type="text"
                      autoComplete="off"
                      autoCapitalize="off"
                      spellCheck={false}
                      maxLength={length}
                      value={values[i]}
                      aria-invalid={invalid[i] || undefined}
                      className="slots"
                      style={{ '--letters': length } as CSSProperties}
                      aria-label={`Missing letters ${i + 1} of ${hidden.length} (${length} letter${length === 1 ? '' : 's'})`}
                      onChange={(event) => setValue(i, event.target.value)}
                      onKeyDown={(event) => {
                        if (event.key === 'Backspace' && values[i] === '' && i > 0) {
                          event.preventDefault();
                          inputs.current[i - 1]?.focus();
                        }
                      }}
                    />
                  );
                })}
              </span>
            </Fragment>
          ))}
          {cloze && <span className="around">{cloze.after}</span>}
        </p>
      </fieldset>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      <div className="actions">
        <button type="submit" className="primary" disabled={complete.isPending}>
          Check
        </button>
        <button type="button" onClick={hint}>
          Hint
        </button>
        <button type="button" className="quiet" onClick={showAnswer}>
          Show answer
        </button>
      </div>
    </form>
  );
}

/** An answer kept on the device: its rating and next review come when it is sent. */
function KeptFeedback({ answer, last, onNext }: { answer: string; last: boolean; onNext: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="feedback" role="region" aria-label="Feedback">
      <h2 ref={heading} tabIndex={-1}>
        Kept on this device
      </h2>
      <p className="answer" lang="en">
        {answer}
      </p>
      <p className="muted">Your answer is sent, with the time you gave it, when you are back online; its next review is set then.</p>
      <div className="actions">
        <button type="button" className="primary" onClick={onNext}>
          {last ? 'Finish' : 'Next item'}
        </button>
      </div>
    </div>
  );
}

function Feedback({
  outcome: { result, firstTry },
  last,
  lang,
  onNext,
  onUndo,
  undoing,
}: {
  outcome: Outcome;
  last: boolean;
  lang: string | null;
  onNext: () => void;
  onUndo: () => void;
  undoing: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const usage = result.feedback.usage;
  return (
    <div className="feedback" role="region" aria-label="Feedback">
      <h2 ref={heading} tabIndex={-1} className={`rating rating-${result.rating}`}>
        {RATING_HEADLINE[result.rating]}
      </h2>
      <p className="answer" lang="en">
        {result.feedback.text} <PlayAudio subject={{ cardId: result.cardId }} label={result.feedback.text} />
      </p>
      {firstTry && (
        <p className="first-try">
          Your first try: <span lang="en">{firstTry}</span>
        </p>
      )}
      <p className="translation" lang={lang ?? undefined}>
        {result.feedback.translation}
      </p>
      <p className="usage">
        <span className="register">{usage.register}</span> {usage.guidance}
      </p>
      {usage.examples.length > 0 && (
        <ul className="examples" aria-label="Examples">
          {usage.examples.map((x) => (
            <li key={x} lang="en">
              {x}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        Next review{' '}
        <time dateTime={result.nextReviewAt} title={formatDateTime(result.nextReviewAt)}>
          {dueFromNow(result.nextReviewAt)}
        </time>
        .
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={onNext}>
          {last ? 'Finish' : 'Next item'}
        </button>
        <button type="button" className="quiet" onClick={onUndo} disabled={undoing}>
          Undo: try it again
        </button>
      </div>
    </div>
  );
}
