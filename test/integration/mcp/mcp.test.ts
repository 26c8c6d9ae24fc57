import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { legacyCollection } from '../../support/anki-collection.ts';
import { writeZip } from '../../support/zip-writer.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, mintToken, newUser, type TestUser } from '../../support/users.ts';
import { lcsMain, repoRoot, tempHome, tsxLoader } from '../cli/run-lcs.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started));

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** An agent's side: the SDK's own client, spawning `lcs mcp` over stdio as an MCP client configuration would. */
async function agent(token: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', tsxLoader, lcsMain, 'mcp'],
    cwd: repoRoot,
    stderr: 'pipe',
    env: { PATH: process.env.PATH!, HOME: tempHome(), LCS_URL: stack.baseUrl, LCS_TOKEN: token, ...env },
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<any>;

const WRITE_TOOLS = ['capture_expression', 'save_sentence', 'translate_texts', 'draft_english', 'import_expressions', 'import_file'];
const READ_TOOLS = ['search_library', 'get_card', 'get_credits', 'due_for_practice', 'get_import'];

describe('lcs mcp', () => {
  it("lists every tool with the API's input schemas", async () => {
    const { tools } = await (await agent(user.token)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...WRITE_TOOLS, ...READ_TOOLS].sort());
    const capture = tools.find((t) => t.name === 'capture_expression')!;
    expect(capture.inputSchema).toMatchObject({
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string', description: expect.stringContaining('English expression') } },
    });
    expect(tools.find((t) => t.name === 'search_library')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('captures, searches and reads a card, with structured content and a short text', async () => {
    const client = await agent(user.token);
    const captured = await call(client, 'capture_expression', { text: 'cut corners' });
    expect(captured.isError).toBeFalsy();
    expect(captured.structuredContent).toMatchObject({ reused: false, card: { text: 'cut corners', cardId: expect.any(String) } });
    expect(captured.content[0].text).toMatch(/^Captured: "cut corners"/);
    const cardId = captured.structuredContent.card.cardId;
    expect((await call(client, 'capture_expression', { text: 'Cut corners.' })).structuredContent).toMatchObject({ reused: true, card: { cardId } });
    // With the sentence it was met in: added to the known card, free.
    const inContext = await call(client, 'capture_expression', { text: 'cut corners', context: 'They cut corners on the new bridge.' });
    expect(inContext.structuredContent).toMatchObject({ reused: true, card: { cardId } });
    expect((await call(client, 'capture_expression', { text: 'cut corners', context: 'No such words here.' })).isError).toBe(true);

    const found = await call(client, 'search_library', { query: 'CUT' });
    expect(found.structuredContent.items.map((c: any) => c.cardId)).toEqual([cardId]);
    await expect.poll(async () => (await call(client, 'get_card', { cardId })).structuredContent.card.enrichmentStatus, { timeout: 20_000 }).toBe('ready');
    const card = await call(client, 'get_card', { cardId });
    expect(card.structuredContent.card).toMatchObject({ cardId, enrichment: { translation: expect.any(String) }, scheduling: { state: 'new' } });
    expect(
      (await call(client, 'search_library', { status: 'ready', limit: 5 })).structuredContent.items.every((c: any) => c.enrichmentStatus === 'ready'),
    ).toBe(true);
  });

  it('saves a sentence, translates texts (a rerun is free), drafts English, reads credits and what is due', async () => {
    const client = await agent(user.token);
    const sentence = await call(client, 'save_sentence', { text: 'The meeting has been moved to Friday.' });
    expect(sentence.structuredContent.sentence).toMatchObject({ original_text: 'The meeting has been moved to Friday.', status: 'translated' });

    const texts = ['Good morning', 'See you tomorrow'];
    const first = await call(client, 'translate_texts', { texts, target_language: 'fr' });
    expect(first.isError, first.content[0].text).toBeFalsy();
    expect(first.structuredContent.translations).toHaveLength(2);
    const balance = await balanceOf(stack, user);
    const rerun = await call(client, 'translate_texts', { texts, target_language: 'fr' });
    expect(await balanceOf(stack, user)).toBe(balance);
    expect(rerun.structuredContent).toMatchObject({ translations: first.structuredContent.translations, creditsCharged: 0 });

    const draft = await call(client, 'draft_english', { prompt: 'dire merci pour le cadeau', tone: 'formal' });
    expect(draft.structuredContent).toMatchObject({ english: expect.any(String), creditsCharged: expect.any(Number) });

    expect((await call(client, 'get_credits')).structuredContent).toMatchObject({ plan: 'free', balance: expect.any(Number) });
    expect((await call(client, 'due_for_practice')).structuredContent).toMatchObject({ dueNow: 0, nextDueAt: null, newCards: expect.any(Number) });
  });

  it('maps problems to tool errors with the catalog code and detail', async () => {
    const client = await agent(user.token);
    const missing = await call(client, 'get_card', { cardId: '00000000-0000-4000-8000-000000000000' });
    expect(missing).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^not_found: /) }] });

    const noLanguages = await newUser(stack, { languages: null });
    const unset = await call(await agent(noLanguages.token), 'capture_expression', { text: 'hold your horses' });
    expect(unset.isError).toBe(true);
    expect(unset.content[0].text).toMatch(/^language_setup_required: .*languages/);

    const broke = await newUser(stack);
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [broke.userId]);
    const noCredits = await call(await agent(broke.token), 'draft_english', { prompt: 'hello' });
    expect(noCredits.isError).toBe(true);
    expect(noCredits.content[0].text).toMatch(/^insufficient_credits: /);

    // Input the API's schema refuses never reaches the service.
    const invalid = await call(client, 'capture_expression', { text: '12345' });
    expect(invalid.isError).toBe(true);
  });

  it('imports a list (import_expressions) and follows it (get_import) until every card is prepared', async () => {
    const learner = await newUser(stack);
    const client = await agent(learner.token);
    const expressions = ['by and large', 'to and fro', 'by and large', 'odds and ends'];
    const started = await call(client, 'import_expressions', { expressions, source: 'agent list' });
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ parsed: { expressions: 3, skipped: { duplicatesInFile: 1 } } });
    const importId = started.structuredContent.importId;
    const done = await vi.waitFor(
      async () => {
        const got = await call(client, 'get_import', { importId });
        expect(got.structuredContent.import.state).toBe('completed');
        return got;
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(done.structuredContent.import.counts).toMatchObject({ saved: 3, prepared: 3 });
    expect(done.content[0].text).toMatch(/All 3 new cards prepared/);
  });

  it('imports an Anki package from a file on the machine (import_file) with its reviews, and says a file that is not there', async () => {
    const learner = await newUser(stack);
    const client = await agent(learner.token);
    const dir = await mkdtemp(join(tmpdir(), 'lcs-mcp-import-'));
    try {
      const path = join(dir, 'English.apkg');
      const collection = legacyCollection([
        { deck: 'Words', fields: ['take off', 'décoller', 'The plane will take off at noon.'], reviews: [[Date.UTC(2026, 0, 5), 3]] },
        { deck: 'Words', fields: ['set up', 'installer', 'We set up the tent.'] },
        { deck: 'Stories', fields: ['once upon a time', 'il était une fois', ''] },
      ]);
      await writeFile(path, writeZip([{ name: 'collection.anki2', data: collection }]));
      const started = await call(client, 'import_file', { path, decks: ['Words'], sentenceField: 'Sentence', history: true });
      expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
      expect(started.structuredContent).toMatchObject({ parsed: { expressions: 2 } });
      const done = await vi.waitFor(
        async () => {
          const got = await call(client, 'get_import', { importId: started.structuredContent.importId });
          expect(got.structuredContent.import.state).toBe('completed');
          return got;
        },
        { timeout: 60_000, interval: 500 },
      );
      expect(done.content[0].text).toMatch(/All 2 new cards prepared.*1 card with 1 review; due dates kept\./);
      const missing = await call(client, 'import_file', { path: join(dir, 'gone.apkg') });
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toMatch(/No such file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('offers a read-scope token the read tools only', async () => {
    const { token } = await mintToken(stack, user.cookie, { scope: 'read' });
    const client = await agent(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    expect((await call(client, 'get_credits')).isError).toBeFalsy();
    expect((await call(client, 'capture_expression', { text: 'no way' })).isError).toBe(true);
  });
});
