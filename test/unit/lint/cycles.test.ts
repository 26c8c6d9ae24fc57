import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run lint`'s cycle check (dpdm with the project's dpdm.config.json), run on a tree made here:
// a cycle through value imports fails it; one through type-only imports, which Node never walks, does not.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const dpdm = join(root, 'node_modules/dpdm/lib/bin/dpdm.js');
let tree: string | undefined;

afterEach(async () => {
  if (tree) await rm(tree, { recursive: true, force: true });
});

async function checkCycles(files: Record<string, string>): Promise<{ code: number; output: string }> {
  tree = await mkdtemp(join(tmpdir(), 'lcs-cycles-'));
  await mkdir(join(tree, 'src'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(tree, 'src', name), text);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [dpdm, '--config', join(root, 'dpdm.config.json'), '--cwd', tree]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

describe('the cycle check', () => {
  it('fails on a cycle through value imports, naming it', async () => {
    const { code, output } = await checkCycles({
      'engine.ts': "import { espeak } from './espeak.ts';\nexport class SpeechError extends Error {}\nexport const engine = () => espeak();\n",
      'espeak.ts': "import { SpeechError } from './engine.ts';\nexport const espeak = () => new SpeechError('no voice');\n",
    });
    expect(code).toBe(1);
    expect(output).toMatch(/src\/(engine\.ts -> src\/espeak|espeak\.ts -> src\/engine)\.ts/);
  }, 30_000);

  it('passes a cycle through type-only imports', async () => {
    const { code, output } = await checkCycles({
      'engine.ts': "import { espeak } from './espeak.ts';\nexport interface Engine { speak(): void }\nexport const engine = () => espeak;\n",
      'espeak.ts': "import type { Engine } from './engine.ts';\nexport const espeak: Engine = { speak() {} };\n",
    });
    expect(output).toContain('no circular dependency');
    expect(code).toBe(0);
  }, 30_000);
});
