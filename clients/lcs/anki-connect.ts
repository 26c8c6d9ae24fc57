/**
 * `lcs anki push`: sends prepared cards to a running Anki through AnkiConnect (its add-on's HTTP
 * API, version 6). What was pushed is remembered per service in ~/.config/lcs/anki.json (card id
 * → note id and a digest of its fields), so a rerun adds only new cards and updates changed ones.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ANKI_DECK, ankiFields } from '../../src/features/library/export-format.ts';
import { configFile } from './config.ts';
import { searchLibrary } from './library.ts';
import { type Api, ServiceError } from './service.ts';

export const DEFAULT_ANKI_CONNECT_URL = 'http://127.0.0.1:8765';

type Fields = { Front: string; Back: string };
interface Pushed {
  noteId: number;
  digest: string;
}
type PushState = Record<string, Record<string, Pushed>>;

const stateFile = () => join(dirname(configFile()), 'anki.json');
const digestOf = (fields: Fields) => createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 16);

async function ankiConnect<T>(url: string, action: string, params: object): Promise<T> {
  let answer: { result: T; error: string | null };
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action, version: 6, params }) });
    answer = (await res.json()) as typeof answer;
  } catch (error) {
    throw new ServiceError(
      `Cannot reach AnkiConnect at ${url}: is Anki running with the AnkiConnect add-on? (${(error as Error).message})`,
      'anki_unreachable',
      null,
    );
  }
  if (answer.error) throw new ServiceError(`AnkiConnect ${action}: ${answer.error}`, 'anki_error', 502);
  return answer.result;
}

export interface PushSummary {
  added: number;
  updated: number;
  unchanged: number;
  skipped: { cardId: string; text: string; reason: string }[];
  /** With --sync: Anki synced with AnkiWeb after the push. */
  synced?: boolean;
}

export async function pushToAnki(api: Api, ankiUrl: string, options: { sync?: boolean } = {}): Promise<PushSummary> {
  const state = await readState();
  const pushed = (state[api.url] ??= {});
  const cards = await searchLibrary(api, { status: 'ready', limit: Number.POSITIVE_INFINITY });
  const wanted = cards.flatMap((card) => {
    const e = card.enrichment!;
    const fields = ankiFields({
      text: card.text,
      correctedText: e.correctedText,
      translation: e.translation,
      guidance: e.usage.guidance,
      examples: e.usage.examples,
    });
    return fields ? [{ cardId: card.cardId, text: card.text, fields, digest: digestOf(fields) }] : [];
  });
  const summary: PushSummary = { added: 0, updated: 0, unchanged: 0, skipped: [] };
  const toAdd = wanted.filter((w) => !pushed[w.cardId]);
  const toUpdate = wanted.filter((w) => pushed[w.cardId] && pushed[w.cardId]!.digest !== w.digest);
  summary.unchanged = wanted.length - toAdd.length - toUpdate.length;

  await ankiConnect(ankiUrl, 'createDeck', { deck: ANKI_DECK });
  for (const w of toUpdate) {
    try {
      await ankiConnect(ankiUrl, 'updateNoteFields', { note: { id: pushed[w.cardId]!.noteId, fields: w.fields } });
    } catch (error) {
      // Deleted in Anki since: added again.
      if (!(error instanceof ServiceError) || !/not found/i.test(error.message)) throw error;
      delete pushed[w.cardId];
      toAdd.push(w);
      continue;
    }
    pushed[w.cardId] = { noteId: pushed[w.cardId]!.noteId, digest: w.digest };
    summary.updated++;
  }
  await addNotes(ankiUrl, toAdd, pushed, summary);
  await writeState(state);
  if (options.sync) {
    // After what was pushed is remembered: a failed sync (no AnkiWeb login) loses nothing, and a rerun syncs again.
    await ankiConnect(ankiUrl, 'sync', {});
    summary.synced = true;
  }
  return summary;
}

type Wanted = { cardId: string; text: string; fields: Fields; digest: string };

/** The first field as Anki compares it for duplicates: HTML stripped, entities decoded, NFC. */
const ankiKey = (fields: Fields) =>
  fields.Front.replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .normalize('NFC')
    .trim();

const REFUSED = 'Anki refused it (a note with this front exists, or it is empty)';

/**
 * Adds the new notes so that one note Anki refuses never blocks the others: notes with the same
 * front as an earlier one of this push are skipped (Anki would refuse the second); each note is
 * checked first (canAddNotesWithErrorDetail, or canAddNotes on an older add-on) and a refused one
 * reported with Anki's reason; the rest go in one addNotes. The current add-on's addNotes is all
 * or nothing: when it still refuses (a note added meanwhile), the notes go one by one. The older
 * add-on's per-note nulls are reported as refused.
 */
async function addNotes(ankiUrl: string, toAdd: Wanted[], pushed: Record<string, Pushed>, summary: PushSummary): Promise<void> {
  const note = (w: Wanted) => ({ deckName: ANKI_DECK, modelName: 'Basic', fields: w.fields, tags: ['lcs'], options: { allowDuplicate: false } });
  const skip = (w: Wanted, reason: string) => summary.skipped.push({ cardId: w.cardId, text: w.text, reason });
  const firstByFront = new Map<string, Wanted>();
  const unique: Wanted[] = [];
  for (const w of toAdd) {
    const earlier = firstByFront.get(ankiKey(w.fields));
    if (earlier) skip(w, `same front as “${earlier.text}” in this push (Anki keeps one note per front)`);
    else {
      firstByFront.set(ankiKey(w.fields), w);
      unique.push(w);
    }
  }
  if (unique.length === 0) return;
  let verdicts: { canAdd: boolean; error?: string }[];
  try {
    verdicts = await ankiConnect<{ canAdd: boolean; error?: string }[]>(ankiUrl, 'canAddNotesWithErrorDetail', { notes: unique.map(note) });
  } catch (error) {
    if (!(error instanceof ServiceError) || !/unsupported action/i.test(error.message)) throw error;
    const can = await ankiConnect<boolean[]>(ankiUrl, 'canAddNotes', { notes: unique.map(note) });
    verdicts = can.map((ok) => (ok ? { canAdd: true } : { canAdd: false, error: REFUSED }));
  }
  const accepted = unique.filter((w, i) => {
    const verdict = verdicts[i];
    if (verdict?.canAdd) return true;
    skip(w, `Anki refused it: ${verdict?.error ?? 'no reason given'}`);
    return false;
  });
  const added = (w: Wanted, noteId: number) => {
    pushed[w.cardId] = { noteId, digest: w.digest };
    summary.added++;
  };
  for (let start = 0; start < accepted.length; start += 100) {
    const chunk = accepted.slice(start, start + 100);
    let ids: (number | null)[] | null = null;
    try {
      ids = await ankiConnect<(number | null)[]>(ankiUrl, 'addNotes', { notes: chunk.map(note) });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'anki_error') throw error;
    }
    if (ids) {
      chunk.forEach((w, i) => (ids[i] == null ? skip(w, REFUSED) : added(w, ids[i])));
      continue;
    }
    // All or nothing refused: one by one, each with Anki's own reason.
    for (const w of chunk) {
      try {
        added(w, await ankiConnect<number>(ankiUrl, 'addNote', { note: note(w) }));
      } catch (error) {
        if (!(error instanceof ServiceError) || error.code !== 'anki_error') throw error;
        skip(w, `Anki refused it: ${error.message.replace(/^AnkiConnect addNote: /, '')}`);
      }
    }
  }
}

async function readState(): Promise<PushState> {
  try {
    return JSON.parse(await readFile(stateFile(), 'utf8')) as PushState;
  } catch {
    return {};
  }
}

async function writeState(state: PushState) {
  await mkdir(dirname(stateFile()), { recursive: true, mode: 0o700 });
  await writeFile(stateFile(), `${JSON.stringify(state)}\n`, { mode: 0o600 });
}
