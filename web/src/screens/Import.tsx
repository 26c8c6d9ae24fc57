import { useQuery } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { useRef, useState, type DragEvent } from 'react';
import type { AnkiPackageSummary } from '../../../src/domain/imports.ts';
import { IMPORT_FILE_MAX_BYTES } from '../../../src/domain/limits.ts';
import { explain } from '../errors.ts';
import { APP_PATHS } from '../paths.ts';
import { Link, navigate, searchParam, useLocation } from '../router.tsx';
import { trpc } from '../trpc.ts';

type ImportView = inferOutput<typeof trpc.library.imports.get>['import'];

/** An Anki package's decks and note types (the preview's `anki`), to choose from. */
type AnkiPackage = AnkiPackageSummary;

interface Preview {
  format: string;
  anki?: AnkiPackage;
  expressions: number;
  inLibrary: number;
  skipped: { duplicatesInFile: number; tooLong: number; invalid: number; otherLanguage: number };
  problems: { line: number; code: string; message: string }[];
  problemsTotal: number;
  first: { line: number; text: string; context?: string; source?: string; inLibrary: boolean }[];
  longLines: { line: number; text: string }[];
}

const FORMATS = [
  ['', 'Detect it'],
  ['lines', 'One expression per line'],
  ['csv', 'CSV (a column of it)'],
  ['tsv', 'TSV (a column of it)'],
  ['anki', 'Anki: Notes in Plain Text'],
  ['kindle', 'Kindle vocab.db'],
  ['apkg', 'Anki package (.apkg, .colpkg)'],
  ['koreader', 'KOReader vocabulary builder'],
] as const;

/** What the learner chose of the file: a format, a CSV column, an Anki package's decks and fields, KOReader's book titles. */
interface Choice {
  format: string;
  column: string;
  decks: string[];
  field: string;
  sentenceField: string;
  bookTitles: boolean;
  history: boolean;
}

const NO_CHOICE: Choice = { format: '', column: '', decks: [], field: '', sentenceField: '', bookTitles: false, history: false };

const STOPPED = new Set(['completed', 'cancelled', 'waiting_for_credits']);

/** What to do about a failure, by its code. */
const FAILURE_ACTION: Record<string, string> = {
  insufficient_credits: 'They will be prepared when your credits renew.',
  import_cancelled: 'Prepare them again from their cards in the library.',
  provider_output_invalid: 'Prepare them again from their cards in the library.',
  service_unavailable: 'Prepare them again from their cards in the library in a moment.',
};

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
/** A file's size as a person reads it: "812 bytes", "14 KB", "3.2 MB". */
const fileSize = (bytes: number) => (bytes < 1_000 ? `${bytes} bytes` : bytes < 1_000_000 ? `${Math.round(bytes / 1_000)} KB` : megabytes(bytes));
const lines = (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'line' : 'lines'}`;

/** The file sent as it is (not JSON): the service reads it, so a Kindle database or an Anki package works the same as a text file. */
async function send<T>(path: 'preview' | 'file', file: File, choice: Choice): Promise<T> {
  const query = new URLSearchParams({ fileName: file.name.slice(0, 200) });
  for (const [key, value] of [
    ['format', choice.format],
    ['column', choice.column],
    ['field', choice.field],
    ['sentenceField', choice.sentenceField],
  ] as const) {
    if (value) query.set(key, value);
  }
  for (const deck of choice.decks) query.append('deck', deck);
  if (choice.bookTitles) query.set('bookTitles', 'true');
  if (choice.history) query.set('history', 'true');
  const type =
    choice.format === 'apkg' || /\.(apkg|colpkg)$/i.test(file.name)
      ? 'application/zip'
      : choice.format === 'kindle' || choice.format === 'koreader' || /\.(db|sqlite3?)$/i.test(file.name)
        ? 'application/vnd.sqlite3'
        : choice.format === 'csv'
          ? 'text/csv'
          : choice.format === 'tsv'
            ? 'text/tab-separated-values'
            : 'text/plain';
  const res = await fetch(`/api/library/imports/${path}?${query}`, {
    method: 'POST',
    body: file,
    headers: { 'content-type': type },
    credentials: 'same-origin',
  });
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) throw new Error((body as { detail?: string } | null)?.detail ?? `The service answered ${res.status}.`);
  return body as T;
}

/** Library → Import: a file dropped or chosen, a preview of what it brings, then its progress live and what to do about failures. */
export function Import() {
  useLocation();
  const importId = searchParam('id');
  return (
    <section className="panel" aria-labelledby="import-heading">
      <p>
        <Link to={APP_PATHS.library}>← Library</Link>
      </p>
      <h1 id="import-heading">Import expressions</h1>
      {importId ? <ImportProgress importId={importId} /> : <ImportForm />}
    </section>
  );
}

function ImportForm() {
  const [file, setFile] = useState<File | null>(null);
  const [choice, setChoice] = useState<Choice>(NO_CHOICE);
  const [preview, setPreview] = useState<Preview | null>(null);
  // An Anki package's decks and fields stay on screen while a choice of them is refused (a deck without notes).
  const [anki, setAnki] = useState<AnkiPackage | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The service reads one file of a learner's at a time (a second meanwhile is refused with 429), so a
  // preview waits for the one in flight, and only the latest choice is read and shown.
  const previewing = useRef<Promise<unknown>>(Promise.resolve());
  const latestChoice = useRef(0);

  async function choose(next: File | null, nextChoice = choice) {
    const ticket = ++latestChoice.current;
    if (next !== file) setAnki(null);
    setFile(next);
    setChoice(nextChoice);
    setPreview(null);
    setError('');
    if (!next) return;
    if (next.size > IMPORT_FILE_MAX_BYTES) {
      setError(`This file is ${megabytes(next.size)}; an import takes files up to ${megabytes(IMPORT_FILE_MAX_BYTES)}. Split it.`);
      return;
    }
    if (next.size === 0) {
      setError('This file is empty.');
      return;
    }
    setBusy(true);
    await previewing.current;
    if (ticket !== latestChoice.current) return;
    const reading = send<Preview>('preview', next, nextChoice);
    previewing.current = reading.catch(() => {});
    try {
      const read = await reading;
      if (ticket !== latestChoice.current) return;
      setPreview(read);
      if (read.anki) setAnki(read.anki);
    } catch (failure) {
      if (ticket === latestChoice.current) setError((failure as Error).message);
    } finally {
      if (ticket === latestChoice.current) setBusy(false);
    }
  }

  async function start() {
    if (!file) return;
    setBusy(true);
    try {
      const created = await send<{ import: ImportView }>('file', file, choice);
      navigate(`${APP_PATHS.libraryImport}?id=${created.import.importId}`);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void choose(event.dataTransfer.files[0] ?? null);
  };

  return (
    <>
      <div
        className={`drop-zone${over ? ' over' : ''}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>
          Drop a file here, or{' '}
          <button type="button" onClick={() => input.current?.click()}>
            choose one
          </button>
        </p>
        {/* Prettier fills this paragraph past the 160-character lines that the lint holds. */}
        {/* prettier-ignore */}
        <p className="hint">
          Plain lines, CSV or TSV, an Anki package or its “Notes in Plain Text”, a Kindle <code>vocab.db</code>,
          KOReader’s <code>vocabulary_builder.sqlite3</code>, or a library export.
          Up to {megabytes(IMPORT_FILE_MAX_BYTES)} and 10,000 expressions.
          Saving is free; each new card’s preparation costs credits, at the pace your budget allows.
        </p>
        <input
          ref={input}
          id="import-file"
          type="file"
          className="visually-hidden"
          aria-label="File to import"
          accept=".txt,.csv,.tsv,.db,.sqlite,.sqlite3,.apkg,.colpkg,text/plain,text/csv,text/tab-separated-values,application/zip"
          onChange={(event) => void choose(event.target.files?.[0] ?? null)}
        />
        {file && <p className="muted">{`${file.name} (${fileSize(file.size)})`}</p>}
      </div>
      <div className="row">
        <label>
          Format{' '}
          <select value={choice.format} onChange={(event) => void choose(file, { ...NO_CHOICE, format: event.target.value })}>
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {(choice.format === 'csv' || choice.format === 'tsv') && (
          <label>
            Column{' '}
            <input
              value={choice.column}
              placeholder="a header name or 1, 2, …"
              onChange={(event) => setChoice({ ...choice, column: event.target.value })}
              onBlur={() => void choose(file, choice)}
            />
          </label>
        )}
        {(choice.format === 'koreader' || preview?.format === 'koreader') && (
          <label className="check">
            <input type="checkbox" checked={choice.bookTitles} onChange={(event) => void choose(file, { ...choice, bookTitles: event.target.checked })} /> Keep
            each word’s book title
          </label>
        )}
      </div>
      {anki && <AnkiChoice anki={anki} choice={choice} onChange={(next) => void choose(file, next)} />}
      <p className="status" data-tone={error ? 'error' : ''} role="status" aria-live="polite">
        {busy ? 'Reading the file…' : error}
      </p>
      {preview && <PreviewView preview={preview} />}
      {preview && preview.expressions > 0 && (
        <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
          {`Import ${preview.expressions.toLocaleString('en')} expressions`}
        </button>
      )}
    </>
  );
}

/** An Anki package's decks (each with its subdecks) and the fields holding the expression and, if any, a sentence. */
function AnkiChoice({ anki, choice, onChange }: { anki: AnkiPackage; choice: Choice; onChange: (next: Choice) => void }) {
  const fields = [...new Set(anki.noteTypes.flatMap((t) => t.fields))];
  const toggle = (deck: string, on: boolean) => onChange({ ...choice, decks: on ? [...choice.decks, deck] : choice.decks.filter((d) => d !== deck) });
  return (
    <fieldset className="anki-choice">
      <legend>From this Anki package</legend>
      <p className="hint">{`Note types: ${anki.noteTypes.map((t) => `${t.name} (${t.fields.join(', ')})`).join('; ')}. `}</p>
      {anki.reviews > 0 && (
        <label className="check">
          <input type="checkbox" checked={choice.history} onChange={(event) => onChange({ ...choice, history: event.target.checked })} />{' '}
          {`Bring their ${anki.reviews.toLocaleString('en')} Anki ${anki.reviews === 1 ? 'review' : 'reviews'}: ` +
            'each card’s due date is computed from its reviews (cards suspended in Anki are left out, buried ones are due tomorrow)'}
        </label>
      )}
      <div role="group" aria-label="Decks">
        <p>Decks (none ticked: all of them)</p>
        {anki.decks.map((deck) => (
          <label className="check" key={deck.name}>
            <input type="checkbox" checked={choice.decks.includes(deck.name)} onChange={(event) => toggle(deck.name, event.target.checked)} />{' '}
            {`${deck.name} (${deck.notes.toLocaleString('en')} ${deck.notes === 1 ? 'note' : 'notes'})`}
          </label>
        ))}
      </div>
      <div className="row">
        <FieldSelect
          label="Expression field"
          none="Each note type’s first field"
          fields={fields}
          value={choice.field}
          onChange={(field) => onChange({ ...choice, field })}
        />
        <FieldSelect
          label="Sentence field"
          none="None"
          fields={fields}
          value={choice.sentenceField}
          onChange={(sentenceField) => onChange({ ...choice, sentenceField })}
        />
      </div>
    </fieldset>
  );
}

function FieldSelect(props: { label: string; none: string; fields: string[]; value: string; onChange: (field: string) => void }) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.none}</option>
        {props.fields.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
    </label>
  );
}

function PreviewView({ preview }: { preview: Preview }) {
  const s = preview.skipped;
  const skipped = [
    s.duplicatesInFile && `${s.duplicatesInFile} repeated in the file`,
    s.tooLong && `${s.tooLong} too long for a card`,
    s.invalid && `${s.invalid} without a letter`,
    s.otherLanguage && `${s.otherLanguage} in other languages`,
  ].filter(Boolean);
  return (
    <div className="import-preview" aria-label="Preview">
      <h2>Preview</h2>
      <p data-testid="preview-counts">
        {`${preview.expressions.toLocaleString('en')} expressions (${preview.format}); ${preview.inLibrary} already in your library (their cards are kept)`}
        {skipped.length > 0 && `; left out: ${skipped.join(', ')}`}.
      </p>
      <table>
        <thead>
          <tr>
            <th>Line</th>
            <th>Expression</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {preview.first.map((row) => (
            <tr key={row.line}>
              <td>{row.line}</td>
              <td lang="en">
                {row.text}
                {row.context && <div className="muted">{row.context}</div>}
                {row.source && <div className="muted">{`from ${row.source}`}</div>}
              </td>
              <td>{row.inLibrary ? 'in your library' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {preview.problems.length > 0 && (
        <details>
          <summary>{`${lines(preview.problemsTotal)} ${preview.problemsTotal === 1 ? 'needs' : 'need'} a look`}</summary>
          <ul>
            {preview.problems.slice(0, 20).map((p) => (
              <li key={`${p.line}-${p.code}`}>{p.message}</li>
            ))}
          </ul>
          {preview.longLines.length > 0 && <p className="hint">Lines too long for a card can be saved as sentences from the Sentences tab.</p>}
        </details>
      )}
    </div>
  );
}

function ImportProgress({ importId }: { importId: string }) {
  const query = useQuery(
    trpc.library.imports.get.queryOptions(
      { importId },
      // The status feed pushes the import's moves (live-status.ts); this keeps the bar moving between them.
      { refetchInterval: (q) => (q.state.data && STOPPED.has(q.state.data.import.state) ? false : 1_000) },
    ),
  );
  if (query.isPending) return <p className="muted">Loading the import…</p>;
  if (query.isError)
    return (
      <p className="status" data-tone="error">
        {explain(query.error).message}
      </p>
    );
  return <ImportState view={query.data.import} />;
}

function ImportState({ view }: { view: ImportView }) {
  const c = view.counts;
  const failed = Object.entries(c.failed).filter(([, n]) => n > 0);
  const failedCount = failed.reduce((a, [, n]) => a + n, 0);
  const done = c.prepared + failedCount + c.reused + c.removed;
  const share = c.total > 0 ? Math.round((done / c.total) * 100) : 100;
  const running = !STOPPED.has(view.state);
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    await fetch(`/api/library/imports/${view.importId}`, { method: 'DELETE', credentials: 'same-origin' });
  };
  return (
    <div className="import-progress">
      <p>{view.fileName ?? 'A list'}</p>
      <progress max={100} value={share} aria-label="Import progress" />
      <p data-testid="import-counts">
        {`${share} % — ${c.prepared} of ${c.saved} new cards prepared, ${c.preparing} preparing, ${c.waiting} waiting, ${c.reused} already in your library`}
        {c.waitingForCredits > 0 && `, ${c.waitingForCredits} waiting for credits`}
      </p>
      {view.outcome && (
        <p className="status" data-tone={view.state === 'completed' && failedCount === 0 ? 'ok' : 'error'} data-testid="import-outcome" role="status">
          {view.outcome.message}
        </p>
      )}
      {failed.length > 0 && (
        <ul aria-label="Failures">
          {failed.map(([code, n]) => (
            <li key={code}>{`${n} ${code.replaceAll('_', ' ')}: ${FAILURE_ACTION[code] ?? 'Prepare them again from their cards in the library.'}`}</li>
          ))}
        </ul>
      )}
      {view.problemsTotal > 0 && (
        <details>
          <summary>{`${lines(view.problemsTotal)} of the file ${view.problemsTotal === 1 ? 'was' : 'were'} not imported`}</summary>
          <ul>
            {view.problems.slice(0, 50).map((p) => (
              <li key={`${p.line}-${p.code}`}>{p.message}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="row">
        {running && (
          <button type="button" disabled={cancelling} onClick={() => void cancel()}>
            {cancelling ? 'Cancelling…' : 'Cancel the import'}
          </button>
        )}
        <Link to={APP_PATHS.library}>See your library</Link>
      </div>
    </div>
  );
}
