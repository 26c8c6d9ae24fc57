import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeNote {
  id: number;
  deckName: string;
  modelName: string;
  fields: Record<string, string>;
  tags: string[];
}

type IncomingNote = Omit<FakeNote, 'id'> & { options?: { allowDuplicate?: boolean } };

/**
 * A small AnkiConnect (version 6) that keeps notes in memory and behaves as the real add-on does:
 * - a note is a duplicate when a note of the same note type anywhere in the collection has the
 *   same first field once HTML is stripped (Anki's `note_fields_check`), unless allowDuplicate;
 * - `current` (the AnkiWeb add-on, Anki ≥ 23.10): `addNotes` is all or nothing — one failing note
 *   undoes the others and the reply is an error holding the Python repr of the failures' messages;
 *   `canAddNotesWithErrorDetail` says why per note;
 * - `legacy` (the archived GitHub add-on): `addNotes` answers null for each failing note and adds
 *   the rest; `canAddNotesWithErrorDetail` is an unsupported action.
 * `canAddNotes` checks each note against the collection only, not against the others in the call,
 * as the real one does. Every request is recorded.
 */
export async function startFakeAnkiConnect(behaviour: 'current' | 'legacy' = 'current') {
  const notes: FakeNote[] = [];
  const requests: { action: string; params: any }[] = [];
  let nextId = 1_700_000_000_000;
  const key = (fields: Record<string, string>) =>
    (Object.values(fields)[0] ?? '')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .normalize('NFC')
      .trim();
  const problemOf = (note: IncomingNote): string | null => {
    if (key(note.fields) === '') return 'cannot create note because it is empty';
    if (!note.options?.allowDuplicate && notes.some((n) => n.modelName === note.modelName && key(n.fields) === key(note.fields))) {
      return 'cannot create note because it is a duplicate';
    }
    return null;
  };
  const add = (note: IncomingNote): number => {
    const problem = problemOf(note);
    if (problem) throw new Error(problem);
    const id = nextId++;
    notes.push({ id, deckName: note.deckName, modelName: note.modelName, fields: { ...note.fields }, tags: note.tags });
    return id;
  };
  let loggedIn = true;
  let syncs = 0;
  const actions: Record<string, (params: any) => unknown> = {
    version: () => 6,
    // Anki's sync with AnkiWeb: refused, as the real one is, when the profile has no AnkiWeb login.
    sync: () => {
      if (!loggedIn) throw new Error('sync: not logged in');
      syncs++;
      return null;
    },
    createDeck: () => 1,
    canAddNotes: ({ notes: incoming }: { notes: IncomingNote[] }) => incoming.map((note) => problemOf(note) === null),
    addNote: ({ note }: { note: IncomingNote }) => add(note),
    addNotes: ({ notes: incoming }: { notes: IncomingNote[] }) => {
      if (behaviour === 'legacy') {
        return incoming.map((note) => {
          try {
            return add(note);
          } catch {
            return null;
          }
        });
      }
      const added: number[] = [];
      const errors: string[] = [];
      for (const note of incoming) {
        try {
          added.push(add(note));
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
      if (errors.length) {
        // The current add-on deletes what this call added and raises the failures' messages.
        for (const id of added)
          notes.splice(
            notes.findIndex((n) => n.id === id),
            1,
          );
        throw new Error(`[${errors.map((e) => `'${e}'`).join(', ')}]`);
      }
      return added;
    },
    updateNoteFields: ({ note }: { note: { id: number; fields: Record<string, string> } }) => {
      const found = notes.find((n) => n.id === note.id);
      if (!found) throw new Error('Note was not found: ' + note.id);
      Object.assign(found.fields, note.fields);
      return null;
    },
  };
  if (behaviour === 'current') {
    actions.canAddNotesWithErrorDetail = ({ notes: incoming }: { notes: IncomingNote[] }) =>
      incoming.map((note) => {
        const problem = problemOf(note);
        return problem ? { canAdd: false, error: problem } : { canAdd: true };
      });
  }
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const { action, version, params } = JSON.parse(body);
      requests.push({ action, params });
      let answer: { result: unknown; error: string | null };
      try {
        if (version !== 6) throw new Error('unsupported version');
        if (!actions[action]) throw new Error('unsupported action');
        answer = { result: actions[action](params), error: null };
      } catch (error) {
        answer = { result: null, error: (error as Error).message };
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    notes,
    requests,
    syncs: () => syncs,
    logOut: () => {
      loggedIn = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
