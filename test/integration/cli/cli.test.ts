import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { mintToken, newUser, type TestUser } from '../../support/users.ts';
import { captureReady, runLcs, tempHome } from './run-lcs.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started));

const as = (token: string, extra: Record<string, string> = {}) => ({ home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: token, ...extra } });

describe('lcs login / logout', () => {
  it('checks the token with /api/me, stores address and token with mode 0600, and logout removes them', async () => {
    const home = tempHome();
    const login = await runLcs(['login', '--json'], { home, stdin: `${stack.baseUrl}\n${user.token}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.json).toMatchObject({ email: user.email, access: 'write', url: stack.baseUrl });
    const file = join(home, '.config/lcs/config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: stack.baseUrl, token: user.token });
    // The stored connection serves later commands.
    expect((await runLcs(['credits', '--json'], { home })).json).toMatchObject({ balance: expect.any(Number), plan: 'free' });

    const logout = await runLcs(['logout'], { home });
    expect(logout.code).toBe(0);
    expect(() => statSync(file)).toThrow();
    const after = await runLcs(['credits'], { home });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('lcs login');
  });

  it('refuses a token the service rejects (exit 3) and stores nothing', async () => {
    const home = tempHome();
    const login = await runLcs(['login'], { home, stdin: `${stack.baseUrl}\nlcp_not-a-real-token\n` });
    expect(login.code).toBe(3);
    expect(login.stderr).toMatch(/^lcs: /);
    expect(login.stderr).not.toMatch(/\n\s+at /);
    expect(() => statSync(join(home, '.config/lcs/config.json'))).toThrow();
  });

  it('lets LCS_URL and LCS_TOKEN win over the stored file', async () => {
    const home = tempHome();
    await runLcs(['login'], { home, stdin: `http://127.0.0.1:9\nlcp_whatever\n` }); // unreachable: not stored
    const viaEnv = await runLcs(['credits', '--json'], { home, env: { LCS_URL: stack.baseUrl, LCS_TOKEN: user.token } });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
  });
});

describe('lcs capture', () => {
  it('captures one expression, then reuses it', async () => {
    const first = await runLcs(['capture', 'break', 'the', 'ice', '--json'], as(user.token));
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ new: 1, reused: 0, failed: 0, items: [{ text: 'break the ice', outcome: 'new', cardId: expect.any(String) }] });
    const again = await runLcs(['capture', 'Break the ice!'], as(user.token));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`reused  ${first.json.items[0].cardId}`);
    expect(again.stdout).toContain('0 new, 1 reused, 0 failed');
  });

  it('captures with --context: the sentence is kept on the card; one that lacks the expression is refused with its reason', async () => {
    const run = await runLcs(['capture', 'bank', '--context', 'We sat on the bank of the river.', '--json'], as(user.token));
    expect(run.code, run.stderr).toBe(0);
    const cardId = run.json.items[0].cardId;
    const rows = await stack.orm.em.fork().execute(`SELECT text FROM card_contexts WHERE card_id = ?`, [cardId]);
    expect(rows).toEqual([{ text: 'We sat on the bank of the river.' }]);
    const refused = await runLcs(['capture', 'bank', '--context', 'We sat by the river.'], as(user.token));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('must contain the expression');
    expect((await runLcs(['capture', '-', '--context', 'x'], { ...as(user.token), stdin: 'bank\n' })).code).toBe(2);
  });

  it('captures stdin line by line and reports each failure with its reason', async () => {
    const run = await runLcs(['capture', '-', '--json'], { ...as(user.token), stdin: 'hit the sack\n\nspill the beans\n12345\nhit the sack\n' });
    expect(run.json.items.map((i: any) => i.outcome)).toEqual(['new', 'new', 'failed', 'reused']);
    expect(run.json.items[2]).toMatchObject({ text: '12345', code: 'invalid_request', detail: expect.any(String) });
    expect(run.json).toMatchObject({ new: 2, reused: 1, failed: 1 });
    expect(run.code).toBe(2); // the one failure was a usage error
  });
});

describe('lcs list / show / retry / delete', () => {
  it('lists, searches, filters by status, shows, and deletes', async () => {
    const { token } = await mintToken(stack, user.cookie, { scope: 'write' });
    const cardId = await captureReady('call it a day', as(token));
    const listed = await runLcs(['list', '--json'], as(token));
    expect(listed.json.items.map((c: any) => c.cardId)).toContain(cardId);
    expect((await runLcs(['list', '--query', 'CALL IT', '--json'], as(token))).json.items.map((c: any) => c.cardId)).toEqual([cardId]);
    expect((await runLcs(['list', '--status', 'failed', '--json'], as(token))).json.items.every((c: any) => c.enrichmentStatus === 'failed')).toBe(true);
    expect((await runLcs(['list', '--status', 'done'], as(token))).code).toBe(2);

    const shown = await runLcs(['show', cardId], as(token));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('call it a day');
    expect(shown.stdout).toMatch(/new, due /);
    const detail = await runLcs(['show', cardId, '--json'], as(token));
    expect(detail.json.card).toMatchObject({ cardId, enrichmentStatus: 'ready', scheduling: { reps: 0 } });

    const retry = await runLcs(['retry', cardId, '--json'], as(token));
    expect(retry.code).toBe(1); // a ready card is not prepared again: 409
    expect(retry.json.error).toMatchObject({ code: 'conflict', status: 409 });

    const deleted = await runLcs(['delete', cardId, '--json'], as(token));
    expect(deleted.json).toEqual({ deleted: true, cardId });
    const gone = await runLcs(['show', cardId], as(token));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^lcs: .+/);
  });

  it('retries a failed card; `refresh`, its name before the glossary, still does so for scripts, out of the help', async () => {
    // A learner of its own: this file's user may have spent its credits by now.
    const { token } = await newUser(stack);
    const preparedAs = async (cardId: string) => (await runLcs(['show', cardId, '--json'], as(token))).json.card.enrichmentStatus;
    stack.fake.setMode('privacy_refusal');
    const cardIds: string[] = [];
    for (const text of ['under the weather', 'over the moon']) {
      const cardId = (await runLcs(['capture', text, '--json'], as(token))).json.items[0].cardId as string;
      await expect.poll(() => preparedAs(cardId), { timeout: 20_000 }).toBe('failed');
      cardIds.push(cardId);
    }
    expect((await runLcs(['show', cardIds[0]!], as(token))).stdout).toContain(`\`lcs retry ${cardIds[0]}\` tries again`);

    stack.fake.setMode('ok');
    for (const [command, cardId] of [
      ['retry', cardIds[0]!],
      ['refresh', cardIds[1]!],
    ] as const) {
      const run = await runLcs([command, cardId, '--json'], as(token));
      expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      expect(run.json.card).toMatchObject({ cardId, enrichmentStatus: 'pending' });
      await expect.poll(() => preparedAs(cardId), { timeout: 20_000 }).toBe('ready');
    }
    const help = (await runLcs(['--help'], as(token))).stdout;
    expect(help).toMatch(/^ {2}retry <cardId> /m);
    expect(help).not.toContain('refresh');
  });

  it('says a malformed card id is a usage error (exit 2)', async () => {
    expect((await runLcs(['show', 'not-a-uuid'], as(user.token))).code).toBe(2);
  });
});

describe('lcs credits', () => {
  it('shows the balance and the ledger', async () => {
    const credits = await runLcs(['credits', '--json'], as(user.token));
    expect(credits.json).toMatchObject({ balance: expect.any(Number), held: expect.any(Number), plan: 'free', monthlyAllowance: 500 });
    expect((await runLcs(['credits'], as(user.token))).stdout).toMatch(/credits available/);
    const ledger = await runLcs(['credits', 'ledger', '--json'], as(user.token));
    expect(ledger.code).toBe(0);
    expect(ledger.json).toMatchObject({ items: expect.any(Array), nextCursor: null });
  });
});

describe('exit codes', () => {
  it('2 usage, 3 auth, 5 unreachable', async () => {
    // Two through the real binary: its exit code is the process's, for a parse failure and a failed request alike.
    expect((await runLcs(['capture', '--no-such-option'], { ...as(user.token), spawned: true })).code).toBe(2);
    expect((await runLcs(['list'], { home: tempHome() })).code).toBe(3);
    const badToken = await runLcs(['list'], as('lcp_bad'));
    expect(badToken.code).toBe(3);
    const unreachable = await runLcs(['list'], { home: tempHome(), env: { LCS_URL: 'http://127.0.0.1:9', LCS_TOKEN: user.token }, spawned: true });
    expect(unreachable.code).toBe(5);
    expect(unreachable.stderr).toContain('Cannot reach the service');
  });

  it('2 for a non-loopback http:// address, saying why, before the token is sent; --insecure or LCS_INSECURE=1 lets it through', async () => {
    const cleartext = { home: tempHome(), env: { LCS_URL: 'http://lcs.invalid:3000', LCS_TOKEN: user.token } };
    const refused = await runLcs(['list'], cleartext);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^lcs: Refusing to send your token to http:\/\/lcs\.invalid:3000 in cleartext.*--insecure/);
    const login = await runLcs(['login'], { home: cleartext.home, stdin: `http://lcs.invalid:3000\n${user.token}\n` });
    expect(login.code).toBe(2);
    expect(existsSync(join(cleartext.home, '.config/lcs/config.json'))).toBe(false);
    // Let through, it then fails only because nothing answers there.
    expect((await runLcs(['--insecure', 'list'], cleartext)).stderr).toContain('Cannot reach the service');
    expect((await runLcs(['list'], { home: cleartext.home, env: { ...cleartext.env, LCS_INSECURE: '1' } })).code).toBe(5);
  });

  it('3 for a write with a read-only token, with the problem detail', async () => {
    const { token } = await mintToken(stack, user.cookie, { scope: 'read' });
    const run = await runLcs(['capture', 'on the fence'], as(token));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^lcs: on the fence: .*read/i);
  });
});

describe('lcs export', () => {
  it("writes any format to a file in the caller's directory, or to stdout", async () => {
    await runLcs(['capture', 'a piece of cake'], as(user.token));
    const cwd = tempHome();
    const toFile = await runLcs(['export', '--format', 'tsv', '-o', 'cards.tsv', '--json'], { ...as(user.token), cwd, viaLauncher: true });
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.json).toMatchObject({ format: 'tsv', file: 'cards.tsv', bytes: expect.any(Number) });
    const written = await readFile(join(cwd, 'cards.tsv'), 'utf8');
    expect(written.split('\r\n')[0]).toBe(
      'cardId\ttext\tcorrectedText\ttranslation\tusageGuidance\texamples\tfocuses\tcreated\tdue\treps\tlapses\tstability\tcontexts\tmetCount\tlastMet',
    );
    expect(written).toContain('a piece of cake');

    const toStdout = await runLcs(['export', '--format', 'anki'], as(user.token));
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout.startsWith('#separator:tab\n#html:true\n')).toBe(true);
    expect((await runLcs(['export', '--format', 'xlsx'], as(user.token))).code).toBe(2);
  });
});

describe('the `lcs` bin', () => {
  it("runs through its launcher (package.json bin) in the caller's directory", async () => {
    const run = await runLcs(['capture', '-', '--json'], { ...as(user.token), cwd: tempHome(), viaLauncher: true, stdin: 'by the book\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ items: [{ text: 'by the book' }] });
  });
});
