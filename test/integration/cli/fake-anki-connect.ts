import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeNote {
  id: number;
  deckName: string;
  modelName: string;
  fields: Record<string, string>;
  tags: string[];
}

/**
 * A small AnkiConnect (version 6) that keeps notes in memory: createDeck, addNotes (a note whose
 * first field a note of its deck already has is refused, null, unless allowDuplicate), and
 * updateNoteFields. Every request is recorded.
 */
export async function startFakeAnkiConnect() {
  const notes: FakeNote[] = [];
  const requests: { action: string; params: any }[] = [];
  let nextId = 1_700_000_000_000;
  const actions: Record<string, (params: any) => unknown> = {
    createDeck: () => 1,
    addNotes: ({ notes: incoming }: { notes: (Omit<FakeNote, 'id'> & { options?: { allowDuplicate?: boolean } })[] }) =>
      incoming.map((note) => {
        const front = Object.values(note.fields)[0];
        if (!note.options?.allowDuplicate && notes.some((n) => n.deckName === note.deckName && Object.values(n.fields)[0] === front)) return null;
        const id = nextId++;
        notes.push({ id, deckName: note.deckName, modelName: note.modelName, fields: { ...note.fields }, tags: note.tags });
        return id;
      }),
    updateNoteFields: ({ note }: { note: { id: number; fields: Record<string, string> } }) => {
      const found = notes.find((n) => n.id === note.id);
      if (!found) throw new Error('note was not found');
      Object.assign(found.fields, note.fields);
      return null;
    },
  };
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
