import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENTENCES_MAX_PAGE_SIZE } from '../../../src/domain/limits.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { startFakeAnkiConnect } from './fake-anki-connect.ts';
import { captureReady, runLcs, tempHome } from './run-lcs.ts';
import { api, bodyOf } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started));
let anki: Awaited<ReturnType<typeof startFakeAnkiConnect>>;
beforeAll(async () => {
  anki = await startFakeAnkiConnect();
});
afterAll(async () => {
  await anki?.close();
});

const as = (owner: TestUser, extra: { home?: string; stdin?: string; cwd?: string } = {}) => ({
  home: extra.home ?? tempHome(),
  ...extra,
  env: { LCS_URL: stack.baseUrl, LCS_TOKEN: owner.token },
});

describe('lcs sentence', () => {
  it('adds one sentence and prints its translation', async () => {
    const run = await runLcs(['sentence', 'add', 'The', 'train', 'is', 'late.', '--json'], as(user));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.sentence).toMatchObject({ original_text: 'The train is late.', status: 'translated', translation: expect.any(String) });
  });

  it('imports a file in async mode with a summary; a sentence saved before is no failure', async () => {
    const cwd = tempHome();
    await writeFile(join(cwd, 'sentences.txt'), 'I will be there at noon.\n\nThe train is late.\nWe should talk tomorrow.\n');
    const run = await runLcs(['sentence', 'import', 'sentences.txt', '--json'], as(user, { cwd }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ queued: 2, duplicate: 1, failed: 0 });
    expect(run.json.items.map((i: any) => i.outcome)).toEqual(['queued', 'duplicate', 'queued']);
    const listed = bodyOf(await api(stack, { token: user.token }).GET('/api/sentences', { params: { query: { pageSize: SENTENCES_MAX_PAGE_SIZE } } }), 200);
    expect(listed.total).toBe(3);
  });

  it('exits 4 when no credits are left, with the detail', async () => {
    const broke = await newUser(stack);
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [broke.userId]);
    const run = await runLcs(['sentence', 'add', 'Nothing left.'], as(broke));
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^lcs: .+/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('lcs translate', () => {
  it('translates paragraphs in order, and a rerun of the same text is free', async () => {
    // A learner of its own: the async sentence import above is still charging `user` in the background.
    const reader = await newUser(stack);
    const text = 'First paragraph,\nstill the first.\n\nSecond paragraph.\n\n\nThird.';
    const run = await runLcs(['translate', '--to', 'de', '-', '--json'], as(reader, { stdin: text }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.translations).toHaveLength(3);
    const balance = await balanceOf(stack, reader);
    const rerun = await runLcs(['translate', '--to', 'de', '-'], as(reader, { stdin: text }));
    expect(rerun.stdout.trim().split('\n\n')).toEqual(run.json.translations.map((t: any) => t.text));
    expect(await balanceOf(stack, reader)).toBe(balance);
    expect((await runLcs(['translate', '-'], as(reader, { stdin: 'x' }))).code).toBe(2); // --to is required
  });
});

describe('lcs draft', () => {
  it('drafts English with a tone', async () => {
    const run = await runLcs(['draft', 'remercier', 'mon', 'collègue', '--tone', 'formal', '--json'], as(user));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ english: expect.any(String), notes: expect.any(Array), creditsCharged: expect.any(Number) });
    expect((await runLcs(['draft', 'hi', '--tone', 'rude'], as(user))).code).toBe(2);
  });

  it('still answers to `work`, its name before the glossary, for the scripts that call it', async () => {
    const run = await runLcs(['work', 'dire', 'merci', '--json'], as(user));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ english: expect.any(String), creditsCharged: expect.any(Number) });
  });
});

describe('lcs anki push', () => {
  it('adds prepared cards through AnkiConnect without duplicates, and a rerun adds only what is new', async () => {
    const learner = await newUser(stack);
    const home = tempHome();
    await captureReady('break a leg', as(learner, { home }));

    const push = await runLcs(['anki', 'push', '--anki-url', anki.url, '--json'], as(learner, { home }));
    expect(push.code, push.stderr).toBe(0);
    expect(push.json).toMatchObject({ added: 1, updated: 0, unchanged: 0, skipped: [] });
    const added = anki.requests.find((r) => r.action === 'addNotes')!;
    expect(added.params.notes[0]).toMatchObject({ deckName: 'Language Capture', modelName: 'Basic', options: { allowDuplicate: false } });
    expect(anki.notes.find((n) => n.fields.Back!.includes('break a leg'))).toBeDefined();

    await captureReady('let the cat out of the bag', as(learner, { home }));
    const addsBefore = anki.requests.filter((r) => r.action === 'addNotes').length;
    const rerun = await runLcs(['anki', 'push', '--anki-url', anki.url], as(learner, { home }));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('1 added, 0 updated, 1 unchanged, 0 skipped');
    const lastAdd = anki.requests.filter((r) => r.action === 'addNotes');
    expect(lastAdd).toHaveLength(addsBefore + 1);
    expect(lastAdd.at(-1)!.params.notes).toHaveLength(1);

    // Another machine (no memory of the push) is refused by allowDuplicate: false, not duplicated.
    const elsewhere = await runLcs(['anki', 'push', '--anki-url', anki.url, '--json'], as(learner));
    expect(elsewhere.json).toMatchObject({
      added: 0,
      skipped: [{ reason: expect.stringContaining('duplicate') }, { reason: expect.stringContaining('duplicate') }],
    });
  });

  for (const behaviour of ['current', 'legacy'] as const) {
    it(
      `never blocks on one note (${behaviour} AnkiConnect): adds what Anki accepts, ` + `reports each skipped note with Anki's reason, a rerun adds nothing`,
      async () => {
        const fake = await startFakeAnkiConnect(behaviour);
        try {
          const learner = await newUser(stack);
          const home = tempHome();
          const ids = [];
          for (const text of ['hit the sack', 'call it a day', 'under the weather', 'piece of cake']) ids.push(await captureReady(text, as(learner, { home })));
          const setTranslation = (cardId: string, translation: string) =>
            stack.orm.em
              .fork()
              .execute(`UPDATE cards SET enrichment = jsonb_set(enrichment, '{translation}', to_jsonb(?::text)) WHERE id = ?`, [translation, cardId]);
          // Two cards with one translation (one front), and a front the learner's Anki already holds.
          await setTranslation(ids[0]!, 'aller se coucher');
          await setTranslation(ids[1]!, 'aller se coucher');
          await setTranslation(ids[2]!, 'patraque');
          await setTranslation(ids[3]!, 'du gâteau');
          fake.notes.push({ id: 1, deckName: 'Default', modelName: 'Basic', fields: { Front: '<b>patraque</b>', Back: 'unwell' }, tags: [] });
          const push = await runLcs(['anki', 'push', '--anki-url', fake.url, '--json'], as(learner, { home }));
          expect(push.code, push.stderr).toBe(0);
          expect(push.json.added).toBe(2);
          expect(push.json.skipped).toHaveLength(2);
          const reasons = Object.fromEntries(push.json.skipped.map((s: { text: string; reason: string }) => [s.text, s.reason]));
          expect(reasons['under the weather']).toMatch(behaviour === 'current' ? /duplicate/ : /Anki refused it/);
          expect(Object.values(reasons).some((r) => /same front as/.test(r as string))).toBe(true);
          expect(fake.notes.filter((n) => n.tags.includes('lcs'))).toHaveLength(2);
          const rerun = await runLcs(['anki', 'push', '--anki-url', fake.url, '--json'], as(learner, { home }));
          expect(rerun.json).toMatchObject({ added: 0, unchanged: 2 });
          expect(fake.notes.filter((n) => n.tags.includes('lcs'))).toHaveLength(2);
        } finally {
          await fake.close();
        }
      },
    );
  }

  it('updates a note whose card changed since the last push', async () => {
    const learner = await newUser(stack);
    const home = tempHome();
    const cardId = await captureReady('spill the tea', as(learner, { home }));
    await runLcs(['anki', 'push', '--anki-url', anki.url], as(learner, { home }));
    await stack.orm.em.fork().execute(`UPDATE cards SET enrichment = jsonb_set(enrichment, '{translation}', '"divulguer les potins"') WHERE id = ?`, [cardId]);
    const push = await runLcs(['anki', 'push', '--anki-url', anki.url, '--json'], as(learner, { home }));
    expect(push.json).toMatchObject({ added: 0, updated: 1 });
    expect(anki.notes.some((n) => n.fields.Front === 'divulguer les potins')).toBe(true);
  });

  it(
    'with --sync, ends with AnkiConnect’s sync after the notes are in; ' + 'a refused sync (no AnkiWeb login) is an error and a rerun adds nothing twice',
    async () => {
      const fake = await startFakeAnkiConnect();
      try {
        const learner = await newUser(stack);
        const home = tempHome();
        await captureReady('bite the bullet', as(learner, { home }));
        const push = await runLcs(['anki', 'push', '--anki-url', fake.url, '--sync', '--json'], as(learner, { home }));
        expect(push.code, push.stderr).toBe(0);
        expect(push.json).toMatchObject({ added: 1, synced: true });
        expect(fake.requests.map((r) => r.action).slice(-2)).toEqual(['addNotes', 'sync']);
        expect(fake.syncs()).toBe(1);
        // Without --sync, no sync.
        const plain = await runLcs(['anki', 'push', '--anki-url', fake.url], as(learner, { home }));
        expect(plain.stdout).not.toContain('synced');
        expect(fake.syncs()).toBe(1);

        fake.logOut();
        await captureReady('cut corners', as(learner, { home }));
        const refused = await runLcs(['anki', 'push', '--anki-url', fake.url, '--sync'], as(learner, { home }));
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain('AnkiConnect sync: sync: not logged in');
        // The note was added and remembered before the sync failed: the rerun adds nothing.
        const rerun = await runLcs(['anki', 'push', '--anki-url', fake.url, '--json'], as(learner, { home }));
        expect(rerun.json).toMatchObject({ added: 0, unchanged: 2 });
      } finally {
        await fake.close();
      }
    },
  );

  it('says when Anki is not running (exit 5)', async () => {
    const run = await runLcs(['anki', 'push', '--anki-url', 'http://127.0.0.1:9'], as(user));
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('Cannot reach AnkiConnect');
  });
});
