import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The web app is typed by the server's AppRouter: renaming a procedure or a field must fail the
// suite, not only `npm run typecheck`.
it('type-checks the web app against the server it calls', () => {
  const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
  const run = () => execFileSync(process.execPath, [tsc, '--noEmit', '-p', 'web'], { encoding: 'utf8', stdio: 'pipe' });
  expect(run).not.toThrow();
}, 60_000);
