/**
 * The `lcs` binary: the CLI (program.ts) on this process's own arguments, streams and environment.
 * The launcher (lcs.sh) runs this from the clone's root, so it moves back to the caller's directory.
 */
import { processIo } from './io.ts';
import { run } from './program.ts';

if (process.env.LCS_CWD) process.chdir(process.env.LCS_CWD);

process.exitCode = await run(process.argv.slice(2), processIo());
