import { zstdDecompressSync } from 'node:zlib';
import {
  finishImportRows,
  htmlToText,
  ImportFileError,
  isZip,
  looksLike,
  type AnkiPackageSummary,
  type ImportOptions,
  type ImportProblem,
  type ImportRow,
  type ParsedImport,
} from '../../../domain/imports.ts';
import { ANKI_COLLECTION_MAX_BYTES, ANKI_PACKAGE_ENTRIES_MAX, IMPORT_EXPRESSIONS_MAX } from '../../../domain/limits.ts';
import { openUntrustedSqlite, type UntrustedSqlite } from './untrusted-sqlite.ts';
import { readZipEntry, type ZipLimits } from './zip-entry.ts';

/**
 * Anki packages: `.apkg` (decks) and `.colpkg` (a whole collection), a zip whose collection is
 * `collection.anki21b` (SQLite compressed with zstd, Anki ≥ 2.1.50), `collection.anki21` or
 * `collection.anki2` (plain SQLite; a new package also holds an `anki2` that only says "update
 * Anki", so the newest is read first). Only that entry is inflated; media is skipped. One row per
 * note in the chosen decks: the chosen field (each note type's first by default) as the
 * expression, the chosen sentence field as its context. Pure over the bytes: nothing is written.
 */

/** The collection entries, newest format first. */
const COLLECTIONS = ['collection.anki21b', 'collection.anki21', 'collection.anki2'] as const;
/** Anki separates a nested deck's names with 0x1f in its tables (`::` in the legacy JSON and on screen). */
const DECK_SEPARATOR = '\u001f';
/** Notes read at most before the file is refused as too large: the cap holds while reading. */
const NOTES_READ_MAX = IMPORT_EXPRESSIONS_MAX * 2;
/** Reviews read at most (ten years of daily reviews of 500 cards is below). */
const REVIEWS_READ_MAX = 2_000_000;

const DEFAULT_LIMITS: ZipLimits = { maxEntries: ANKI_PACKAGE_ENTRIES_MAX, maxEntryBytes: ANKI_COLLECTION_MAX_BYTES };

export async function parseAnkiPackage(bytes: Uint8Array, options: ImportOptions = {}, limits: ZipLimits = DEFAULT_LIMITS): Promise<ParsedImport> {
  if (bytes.length === 0) throw new ImportFileError('empty_file', 'The file is empty.');
  if (!isZip(bytes)) {
    throw new ImportFileError('not_zip', `This file is ${looksLike(bytes) ?? 'not a ZIP archive'}; an Anki package (.apkg, .colpkg) is one.`);
  }
  const { names, found } = await readZipEntry(bytes, COLLECTIONS, limits);
  if (!found) {
    const nested = names.find((name) => /\.(apkg|colpkg|zip)$/i.test(name));
    if (nested) {
      throw new ImportFileError('nested_archive', `This archive holds another archive (${nested}), not an Anki collection; import that package itself.`, {
        entry: nested,
      });
    }
    throw new ImportFileError('not_anki', 'This archive is not an Anki package: it holds no collection.anki2, collection.anki21 or collection.anki21b.');
  }
  let collection: Uint8Array = found.bytes;
  if (found.name.endsWith('.anki21b')) {
    try {
      collection = zstdDecompressSync(found.bytes, { maxOutputLength: limits.maxEntryBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ImportFileError('archive_too_large', `The package's collection unpacks to more than ${(limits.maxEntryBytes / 1_000_000).toFixed(0)} MB.`, {
          limit: limits.maxEntryBytes,
        });
      }
      throw new ImportFileError('damaged_archive', `The package's collection.anki21b is not a valid zstd frame (${(error as Error).message}).`);
    }
  }
  if (looksLike(collection)?.startsWith('a ZIP')) {
    throw new ImportFileError('nested_archive', `The package's ${found.name} is itself an archive, not an Anki collection.`, { entry: found.name });
  }
  const db = openUntrustedSqlite(collection, 'collection.anki2', ['col', 'notes', 'cards', 'revlog', 'notetypes', 'fields', 'decks'], {
    collations: ['unicase'],
  });
  try {
    return readCollection(db, options);
  } finally {
    db.close();
  }
}

/** Anki's `cards.queue` values that are a state the learner set (rslib's CardQueue). */
const ANKI_QUEUE = { suspended: -1, buriedBySibling: -2, buriedByHand: -3 } as const;

interface NoteType {
  name: string;
  fields: string[];
}

function readCollection(db: UntrustedSqlite, options: ImportOptions): ParsedImport {
  for (const table of ['col', 'notes', 'cards', 'revlog']) {
    if (!db.tables.has(table)) throw new ImportFileError('not_anki', `This package's collection is not Anki's: it has no ${table} table.`);
  }
  const { decks, noteTypes } = db.tables.has('notetypes') && db.tables.has('fields') && db.tables.has('decks') ? modernSchema(db) : legacySchema(db);

  // Each note's home deck (a card in a filtered deck keeps its home in odid), counted per deck and note type.
  const deckNotes = new Map<string, number>();
  for (const r of db.all<{ did: number | bigint; notes: number | bigint }>(
    `SELECT CASE WHEN odid <> 0 THEN odid ELSE did END AS did, count(DISTINCT nid) AS notes FROM cards GROUP BY 1`,
  )) {
    const name = decks.get(String(r.did)) ?? `deck ${String(r.did)}`;
    deckNotes.set(name, (deckNotes.get(name) ?? 0) + Number(r.notes));
  }
  const typeNotes = new Map<string, number>();
  for (const r of db.all<{ mid: number | bigint; notes: number | bigint }>(`SELECT mid, count(*) AS notes FROM notes GROUP BY mid`)) {
    typeNotes.set(String(r.mid), Number(r.notes));
  }

  // Every deck, empty ones too (the learner sees what the package holds), but Anki's own empty Default, which Anki hides too.
  const deckNames = [...new Set([...decks.values(), ...deckNotes.keys()])]
    .filter((name) => name !== 'Default' || deckNotes.has(name))
    .sort((a, b) => a.localeCompare(b));
  const chosen = (options.decks ?? []).map((d) => d.trim()).filter((d) => d !== '');
  for (const name of chosen) {
    if (!deckNames.some((d) => d === name || d.startsWith(`${name}::`))) {
      throw new ImportFileError('missing_deck', `This package has no deck "${name}". Its decks: ${deckNames.map((d) => `"${d}"`).join(', ')}.`, {
        decks: deckNames,
      });
    }
  }
  const inChosen = (deck: string) => chosen.length === 0 || chosen.some((c) => deck === c || deck.startsWith(`${c}::`));

  const fieldIndex = (type: NoteType, name: string | undefined) =>
    name === undefined ? -1 : type.fields.findIndex((f) => f.toLowerCase() === name.trim().toLowerCase());
  const field = options.field?.trim() || undefined;
  const sentenceField = options.sentenceField?.trim() || undefined;
  const allFields = [...new Set([...noteTypes.values()].flatMap((t) => t.fields))];
  for (const [name, key] of [
    [field, 'field'],
    [sentenceField, 'sentenceField'],
  ] as const) {
    if (name !== undefined && ![...noteTypes.values()].some((t) => fieldIndex(t, name) >= 0)) {
      throw new ImportFileError(
        'missing_field',
        `No note type of this package has a field "${name}". Its fields: ${allFields.map((f) => `"${f}"`).join(', ')}.`,
        {
          [key]: name,
          fields: allFields,
        },
      );
    }
  }

  // One pass over the notes and their cards (in note order, each note's cards by template): a note
  // is read when one of its cards is in a chosen deck.
  const rows: ImportRow[] = [];
  const problems: ImportProblem[] = [];
  const lacking = new Map<string, number>();
  let lastNote: string | null = null;
  let noteLine = 0;
  let read = 0;
  /** With the history: a note whose cards in the chosen decks were all suspended so far, and the notes left out so. */
  let suspendedNote: string | null = null;
  let suspendedNotes = 0;
  /** The card read of each row, by its position in `rows`, and the read cards Anki had buried. */
  const readCards = new Map<string, number>();
  const buriedCards = new Set<string>();
  for (const r of db.iterate<{ nid: number | bigint; mid: number | bigint; flds: string; cid: number | bigint; did: number | bigint; queue: number | bigint }>(
    `SELECT n.id AS nid, n.mid AS mid, n.flds AS flds, c.id AS cid, CASE WHEN c.odid <> 0 THEN c.odid ELSE c.did END AS did, c.queue AS queue
     FROM notes n JOIN cards c ON c.nid = n.id ORDER BY n.id, c.ord`,
  )) {
    const nid = String(r.nid);
    if (nid === lastNote) continue; // the note's first card in a chosen deck decided
    if (suspendedNote !== null && suspendedNote !== nid) {
      suspendedNotes++;
      suspendedNote = null;
    }
    const deck = decks.get(String(r.did)) ?? `deck ${String(r.did)}`;
    if (!inChosen(deck)) continue;
    // A card here is always in practice (the spec's learning queue): one the learner suspended in Anki is not
    // brought with its history; the note's next card in a chosen deck may be. Buried (-2, -3): due tomorrow at the earliest.
    const queue = Number(r.queue);
    if (options.history && queue === ANKI_QUEUE.suspended) {
      suspendedNote = nid;
      continue;
    }
    suspendedNote = null;
    if (options.history && (queue === ANKI_QUEUE.buriedBySibling || queue === ANKI_QUEUE.buriedByHand)) buriedCards.add(String(r.cid));
    lastNote = nid;
    noteLine++;
    if (++read > NOTES_READ_MAX) {
      throw new ImportFileError(
        'too_many_expressions',
        `The chosen decks hold more than ${NOTES_READ_MAX.toLocaleString('en')} notes; ` +
          `an import takes ${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')}. Choose fewer decks.`,
        { limit: IMPORT_EXPRESSIONS_MAX },
      );
    }
    const type = noteTypes.get(String(r.mid)) ?? { name: `note type ${String(r.mid)}`, fields: [] };
    const values = (typeof r.flds === 'string' ? r.flds : '').split('\u001f');
    const at = field === undefined ? 0 : fieldIndex(type, field);
    if (at < 0 || values[at] === undefined) {
      lacking.set(type.name, (lacking.get(type.name) ?? 0) + 1);
      continue;
    }
    const sentenceAt = fieldIndex(type, sentenceField);
    const sentence = sentenceAt >= 0 ? htmlToText(values[sentenceAt] ?? '') : '';
    readCards.set(String(r.cid), rows.length);
    rows.push({ line: noteLine, text: htmlToText(values[at]), ...(sentence ? { context: sentence } : {}) });
  }
  if (suspendedNote !== null) suspendedNotes++;
  if (suspendedNotes > 0) {
    problems.push({
      line: 0,
      code: 'suspended',
      message:
        `${suspendedNotes.toLocaleString('en')} ${suspendedNotes === 1 ? 'note is' : 'notes are'} suspended in Anki; ` +
        'left out, as a card here is always in practice',
    });
  }
  for (const [type, n] of lacking) {
    problems.push({ line: 0, code: 'short_row', message: `${n} notes of the note type "${type}" have no field "${field ?? '(first)'}"; they were left out` });
  }
  // One pass over the review log: each read card's reviews, oldest first. Manual reschedulings and
  // resets (type 4, 5) and Anki's ease 0 are not answers, and are left out.
  let reviews = 0;
  for (const r of db.iterate<{ id: number | bigint; cid: number | bigint; ease: number | bigint; type: number | bigint }>(
    `SELECT id, cid, ease, type FROM revlog ORDER BY cid, id`,
  )) {
    const position = readCards.get(String(r.cid));
    const ease = Number(r.ease);
    if (position === undefined || !(ease >= 1 && ease <= 4) || !(Number(r.type) >= 0 && Number(r.type) <= 3)) continue;
    if (++reviews > REVIEWS_READ_MAX) {
      throw new ImportFileError('too_many_reviews', `The chosen decks hold more than ${REVIEWS_READ_MAX.toLocaleString('en')} reviews. Choose fewer decks.`, {
        limit: REVIEWS_READ_MAX,
      });
    }
    // A review's id is the time it was made, in milliseconds.
    if (options.history) (rows[position]!.history ??= { reviews: [] }).reviews.push([Number(r.id), Number(r.id), ease]);
  }
  for (const cid of buriedCards) {
    const history = rows[readCards.get(cid)!]!.history;
    if (history) history.buried = true;
  }

  const summary: AnkiPackageSummary = {
    decks: deckNames.map((name) => ({ name, notes: deckNotes.get(name) ?? 0 })),
    // The note types in use (a collection package holds Anki's stock ones too).
    noteTypes: [...noteTypes.entries()].filter(([id]) => typeNotes.has(id)).map(([id, t]) => ({ name: t.name, fields: t.fields, notes: typeNotes.get(id)! })),
    chosenDecks: chosen.length ? chosen : deckNames,
    field: field ?? null,
    sentenceField: sentenceField ?? null,
    reviews,
    history: options.history === true,
  };
  if (read === 0) {
    throw new ImportFileError(
      'nothing_in_deck',
      chosen.length ? `The chosen deck${chosen.length > 1 ? 's hold' : ' holds'} no notes.` : 'This package holds no notes.',
      { anki: summary },
    );
  }
  if (rows.length === 0) {
    throw new ImportFileError('nothing_to_import', `No note of the chosen decks has the field "${field}".`, { anki: summary, problems });
  }
  return { ...finishImportRows('apkg', rows, problems), anki: summary };
}

/** Anki ≥ 2.1.28 (schema 15+, every anki21b): decks, note types and fields in tables of their own. */
function modernSchema(db: UntrustedSqlite): { decks: Map<string, string>; noteTypes: Map<string, NoteType> } {
  const decks = new Map(db.all<{ id: number | bigint; name: string }>(`SELECT id, name FROM decks`).map((d) => [String(d.id), deckName(d.name)]));
  const noteTypes = new Map<string, NoteType>(
    db.all<{ id: number | bigint; name: string }>(`SELECT id, name FROM notetypes`).map((t) => [String(t.id), { name: String(t.name), fields: [] }]),
  );
  // Sorted here: Anki's tables use its own collation (unicase), which SQLite outside Anki cannot plan an ORDER BY over.
  const fields = db.all<{ ntid: number | bigint; ord: number | bigint; name: string }>(`SELECT ntid, ord, name FROM fields`);
  fields.sort((a, b) => Number(a.ord) - Number(b.ord));
  for (const f of fields) noteTypes.get(String(f.ntid))?.fields.push(String(f.name));
  return { decks, noteTypes };
}

/** Older collections (schema 11): decks and note types ("models") as JSON in the one `col` row. */
function legacySchema(db: UntrustedSqlite): { decks: Map<string, string>; noteTypes: Map<string, NoteType> } {
  const col = db.get<{ decks: unknown; models: unknown }>(`SELECT decks, models FROM col LIMIT 1`);
  const decksJson = jsonObject(col?.decks);
  const modelsJson = jsonObject(col?.models);
  if (!decksJson || !modelsJson) throw new ImportFileError('not_anki', "This package's collection is not Anki's: its decks and note types cannot be read.");
  const text = (value: unknown, otherwise: string) => (typeof value === 'string' ? value : otherwise);
  const decks = new Map(Object.entries(decksJson).map(([id, d]) => [id, deckName(text(jsonObject(d)?.name, `deck ${id}`))]));
  const noteTypes = new Map<string, NoteType>(
    Object.entries(modelsJson).map(([id, value]) => {
      const m = jsonObject(value);
      const fields = (Array.isArray(m?.flds) ? (m.flds as unknown[]) : []).map((f) => jsonObject(f) ?? {});
      fields.sort((a, b) => Number(a.ord) - Number(b.ord));
      return [id, { name: text(m?.name, `note type ${id}`), fields: fields.map((f) => text(f.name, '')) }];
    }),
  );
  return { decks, noteTypes };
}

/** A JSON object (from text, or already parsed), else null. */
function jsonObject(value: unknown): Record<string, unknown> | null {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
}

const deckName = (name: string) => String(name).split(DECK_SEPARATOR).join('::');
