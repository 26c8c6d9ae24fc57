import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { mintToken, newUser, type TestUser } from '../../support/users.ts';
import { api, bodyOf, type ClientOptions } from '../../support/api.ts';

/**
 * schemathesis against the OpenAPI document, with every check, once per credential kind: it must
 * find nothing. Every phase (examples, coverage, fuzzing, stateful) for the write token, which reaches the
 * handlers, the first two for the other kinds. The suite runs a short version; `npm run fuzz`
 * runs this file with FUZZ_EXAMPLES=40 and every phase for every kind (README: Tests and benchmarks).
 */
const EXAMPLES = Number(process.env.FUZZ_EXAMPLES ?? 5);
const dir = fileURLToPath(new URL('../../schemathesis/', import.meta.url));
const run = promisify(execFile);

let stack: Stack;
/** The tokens' user, and one of the session's own: a page session may revoke the tokens it lists. */
let user: TestUser;
let sessionUser: TestUser;
let readToken: string;
let cli: string | null = null;
let noPython = '';

beforeAll(async () => {
  // The venv first (about a minute the first time on this machine, then cached across worktrees).
  try {
    cli = (await run('sh', [`${dir}ensure-venv.sh`], { timeout: 600_000 })).stdout.trim();
  } catch (error) {
    if ((error as { code?: number }).code !== 3) throw error;
    noPython = String((error as { stderr?: string }).stderr ?? '').trim();
  }
  // A provider that costs nothing, so that no generated request meets a 402 (ST202) by running the wallet dry.
  stack = await startStack({ env: { MODEL_INPUT_USD_PER_MILLION_TOKENS: '0', MODEL_OUTPUT_USD_PER_MILLION_TOKENS: '0' } });
  stack.fake.setCost('0');
  [user, sessionUser] = [await newUser(stack), await newUser(stack)];
  readToken = (await mintToken(stack, user.cookie, { scope: 'read' })).token;
  // Prepared cards, so that GET /api/replay opens a session whose items the stateful phase can complete.
  for (const { token } of [user, sessionUser]) {
    for (const text of ['break a leg', 'under the weather', 'a piece of cake']) {
      expect((await api(stack, { token }).POST('/api/library', { body: { text } })).status).toBe(202);
    }
    await vi.waitFor(
      async () => {
        const { items } = bodyOf(await api(stack, { token }).GET('/api/library'), 200);
        expect(items.map((card) => card.enrichmentStatus)).toEqual(['ready', 'ready', 'ready']);
      },
      { timeout: 30_000, interval: 200 },
    );
  }
}, 900_000);
afterAll(async () => {
  await stack?.close();
});

type CredentialKind = 'write token' | 'read token' | 'session cookie' | 'no credentials';

/**
 * Each credential kind: its headers, and the request that shows it still worked at the end (a run
 * whose credential died on the way would pass on 401s alone). A page session must not end itself
 * mid-run: logout, logout everywhere, a password change, and a login that succeeds (with an account
 * the run signed up) all end the session they are sent with; the other kinds call those operations.
 */
const credentials = (): Record<CredentialKind, { args: string[]; alive?: ClientOptions; phases?: string }> => ({
  'write token': { args: ['-H', `Authorization: Bearer ${user.token}`], alive: { token: user.token } },
  // A read token and no credentials reach no handler the write token's run does not fuzz: what they may
  // not do is refused by the guard (48 operations answer them only 401/403). Their examples and coverage
  // phases show each refusal; fuzzing and stateful runs would send the guard more bodies it never reads.
  'read token': { args: ['-H', `Authorization: Bearer ${readToken}`], alive: { token: readToken }, phases: 'examples,coverage' },
  // A page session reaches the write token's handlers through a guard of its own (the cookie, and Origin for CSRF): its
  // examples and coverage phases send each operation's cases through it. Its fuzzing and stateful runs (70 s of the
  // suite's 10 minutes) are `npm run fuzz`'s, as every kind's are.
  'session cookie': {
    phases: 'examples,coverage',
    args: [
      '-H',
      `Cookie: ${sessionUser.cookie}`,
      '-H',
      `Origin: ${stack.baseUrl}`,
      '--generation-with-security-parameters',
      'false',
      '--exclude-path-regex',
      '/api/auth/(login|logout|logout-everywhere|password)$',
    ],
    alive: { cookie: sessionUser.cookie },
  },
  'no credentials': { args: [], phases: 'examples,coverage' },
});

/**
 * The credential kinds run two at a time: each run is one Python process that keeps a core busy
 * for about a minute, so two together halve the file's time (228 s → 111 s alone here) without
 * taking more than the two cores a CI machine has from the suite's other worker. The two tokens
 * belong to one user: they start apart (write token and session cookie first), so that one
 * user's buckets are shared as little as possible.
 */
const inTurn = pLimit(2);

describe(`schemathesis --checks all, ${EXAMPLES} examples per operation`, () => {
  it.concurrent.for<CredentialKind>(['write token', 'session cookie', 'read token', 'no credentials'])(
    '%s: no failures',
    { timeout: 900_000 },
    async (kind, context) => {
      if (!cli) context.skip(`schemathesis cannot run: ${noPython}`);
      const args = [
        '--config-file',
        'schemathesis.toml',
        '--no-color',
        'run',
        `${stack.baseUrl}/api/openapi.json`,
        '--checks',
        'all',
        '--max-examples',
        String(EXAMPLES),
        '--request-timeout',
        '10',
        // An import's file is a file: whether it is a readable CSV, Anki text or Kindle vocab.db is not
        // something JSON Schema states (test/integration/imports/imports.test.ts sends hostile files).
        '--exclude-path',
        '/api/library/imports/file',
        '--exclude-path',
        '/api/library/imports/preview',
        ...credentials()[kind].args,
        ...(credentials()[kind].phases && !process.env.FUZZ_EXAMPLES ? ['--phases', credentials()[kind].phases!] : []),
      ];
      let started = 0;
      const { code, output } = await inTurn(() => {
        started = Date.now();
        return run(cli!, args, { cwd: dir, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 })
          .then(({ stdout }) => ({ code: 0, output: stdout }))
          .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({
            code: error.code ?? -1,
            output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
          }));
      });
      const summary = output.slice(output.lastIndexOf('= SUMMARY ='));
      console.log(`schemathesis (${kind}): ${Math.round((Date.now() - started) / 1000)} s\n${summary}`);
      // On failure, the whole report: each failure with its curl line to reproduce it.
      expect(code, output.slice(output.indexOf('= FAILURES =') >= 0 ? output.indexOf('= FAILURES =') : 0)).toBe(0);
      expect(summary).toMatch(/\d+ generated, \d+ passed/);
      const { alive } = credentials()[kind];
      if (alive) expect((await api(stack, alive).GET('/api/me')).status, 'the credential still works').toBe(200);
    },
  );
});
