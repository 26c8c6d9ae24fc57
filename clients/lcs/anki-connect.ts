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
  skipped: { cardId: string; reason: string }[];
}

export async function pushToAnki(api: Api, ankiUrl: string): Promise<PushSummary> {
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
    return fields ? [{ cardId: card.cardId, fields, digest: digestOf(fields) }] : [];
  });
  const summary: PushSummary = { added: 0, updated: 0, unchanged: 0, skipped: [] };
  const toAdd = wanted.filter((w) => !pushed[w.cardId]);
  const toUpdate = wanted.filter((w) => pushed[w.cardId] && pushed[w.cardId]!.digest !== w.digest);
  summary.unchanged = wanted.length - toAdd.length - toUpdate.length;

  await ankiConnect(ankiUrl, 'createDeck', { deck: ANKI_DECK });
  for (const w of toUpdate) {
    await ankiConnect(ankiUrl, 'updateNoteFields', { note: { id: pushed[w.cardId]!.noteId, fields: w.fields } });
    pushed[w.cardId] = { noteId: pushed[w.cardId]!.noteId, digest: w.digest };
    summary.updated++;
  }
  const notes = toAdd.map((w) => ({ deckName: ANKI_DECK, modelName: 'Basic', fields: w.fields, tags: ['lcs'], options: { allowDuplicate: false } }));
  const ids = toAdd.length ? await ankiConnect<(number | null)[]>(ankiUrl, 'addNotes', { notes }) : [];
  toAdd.forEach((w, i) => {
    const noteId = ids[i];
    if (noteId == null) summary.skipped.push({ cardId: w.cardId, reason: 'Anki already has a note with this front' });
    else {
      pushed[w.cardId] = { noteId, digest: w.digest };
      summary.added++;
    }
  });
  await writeState(state);
  return summary;
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
