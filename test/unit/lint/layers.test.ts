import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layers of src/ as eslint.config.js states them: each case lints one import as if written in
// a file of that layer, through the project's own config. Only the import rule runs, without the
// type information the other rules need, so a case costs a parse.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const RULE = '@typescript-eslint/no-restricted-imports';
let eslint: ESLint;

// Loading the config imports typescript-eslint, seconds on a busy machine: once, here, not in the first case.
beforeAll(async () => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId === RULE || ruleId === 'max-len',
  });
  await eslint.calculateConfigForFile(`${root}src/main.ts`);
}, 60_000);

async function refusals(filePath: string, code: string, rule = RULE): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: `${root}${filePath}` });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const refused: [layer: string, file: string, code: string, because: string][] = [
  ['domain', 'src/domain/rule.ts', "import { run } from '../db/sql.ts';", 'src/domain imports only itself'],
  ['domain', 'src/domain/rule.ts', "import { readFile } from 'node:fs/promises';", 'src/domain imports only itself'],
  ['domain', 'src/domain/rule.ts', "import type { FeatureContext } from '../features/context.ts';", 'src/domain imports only itself'],
  ['workflows', 'src/workflows/flow.ts', "import { createActivities } from '../activities/index.ts';", 'imports only types from activities and features'],
  ['workflows', 'src/workflows/flow.ts', "import { captureCard } from '../features/library/service.ts';", 'imports only types from activities and features'],
  ['workflows', 'src/workflows/flow.ts', "import { randomUUID } from 'node:crypto';", 'no Node built-ins'],
  ['a feature service', 'src/features/library/anything.ts', "import type { StreamedAnswer } from '../../http/operation.ts';", 'know no transport'],
  ['a feature service', 'src/features/status/feed.ts', "import { feedOf } from '../../http/trpc.ts';", 'know no transport'],
  ['operations.ts', 'src/features/library/operations.ts', "import { feedOf } from '../../http/trpc.ts';", 'only the operation definition'],
  ['operations.ts', 'src/features/account/operations.ts', "import { authPlugin } from '../../http/plugins/auth.ts';", 'only the operation definition'],
  ['src', 'src/main.ts', "import { startFakeProvider } from '../tools/fake-provider/server.ts';", 'src/ imports nothing from the clients'],
  ['src', 'src/http/web-app.ts', "import { APP_PATHS } from '../../web/src/paths.ts';", 'src/ imports nothing from the clients'],
  ['src', 'src/features/library/service.ts', "import { useStack } from '../../../test/support/fixture.ts';", 'src/ imports nothing from the clients'],
  ['src', 'src/model/model-client.ts', "import { connect } from '../../clients/lcs/service.ts';", 'src/ imports nothing from the clients'],
  ['src', 'src/workflows/flow.ts', "import { run } from '../../bench/run.ts';", 'src/ imports nothing from the clients'],
  ['src', 'src/activities/housekeeping.ts', "import { createLogger } from '../wiring/services.ts';", 'Only the entry points'],
];

const allowed: [layer: string, file: string, code: string][] = [
  ['domain', 'src/domain/rule.ts', "import { Decimal } from 'decimal.js';\nimport { hash } from 'node:crypto';\nimport { LIMITS } from './limits.ts';"],
  ['workflows', 'src/workflows/flow.ts', "import type { Activities } from '../activities/index.ts';\nimport { RECORD_RETRY } from '../temporal/failures.ts';"],
  [
    'a feature service',
    'src/features/library/anything.ts',
    "import { AppError } from '../../domain/problems.ts';\nimport type { FeatureContext } from '../context.ts';",
  ],
  [
    'operations.ts',
    'src/features/account/operations.ts',
    "import { defineOperation } from '../../http/operation.ts';\nimport { problemSchema } from '../../http/problem-responses.ts';",
  ],
  ['an entry point', 'src/worker/main.ts', "import { openServices } from '../wiring/services.ts';"],
];

describe('the linter keeps the layers', () => {
  it.each(refused)('refuses, in %s (%s): %s', async (_layer, file, code, because) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(because);
  });

  it.each(allowed)('allows, in %s (%s): %s', async (_layer, file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('the linter keeps lines to 160 characters', () => {
  const line = (length: number) => `export const text = '${'x'.repeat(length - "export const text = '';".length)}';`;

  it('refuses a longer one, a long string included, and allows one of 160', async () => {
    expect(line(161)).toHaveLength(161);
    expect(await refusals('src/features/library/schemas.ts', line(161), 'max-len')).toHaveLength(1);
    expect(await refusals('src/features/library/schemas.ts', line(160), 'max-len')).toEqual([]);
  });

  it('holds in the tests too', async () => {
    expect(await refusals('test/integration/library/export.test.ts', line(161), 'max-len')).toHaveLength(1);
  });
});
