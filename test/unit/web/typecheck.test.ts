import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The web app is typed by the server's AppRouter and the extension by the REST client generated
// from its OpenAPI document: renaming a procedure or a field must fail the suite, not only
// `npm run typecheck`.
it.each(['web', 'extension'])('type-checks the %s against the server it calls', (project) => {
  const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
  const run = () => execFileSync(process.execPath, [tsc, '--noEmit', '-p', project], { encoding: 'utf8', stdio: 'pipe' });
  expect(run).not.toThrow();
}, 60_000);
