/**
 * `lcs`: the language-capture service from a terminal, a script or an agent (`lcs mcp`). Every
 * command goes through the shared REST client with a personal token; `--json` on every command.
 * `run` is the whole CLI for one argv and one `Io`: the binary (main.ts) gives it the process's,
 * the tests their own.
 */
import { Command, CommanderError } from 'commander';
import { accountCommands } from './commands/account.ts';
import { ankiCommands } from './commands/anki.ts';
import { libraryCommands } from './commands/library.ts';
import { exportCommands } from './commands/export.ts';
import { importCommands } from './commands/import.ts';
import { writingCommands } from './commands/writing.ts';
import { fail } from './context.ts';
import { exit, io, type Io, withIo } from './io.ts';
import { serveMcp } from './mcp/server.ts';
import { EXIT } from './exit.ts';

/** A program of its own per run: commander keeps the options it parsed on its commands. */
function program(): Command {
  const lcs = new Command('lcs')
    .description('Capture English expressions into your language-capture library, search it, and take it elsewhere.')
    .option('--json', 'machine-readable output', false)
    .option(
      '--insecure',
      'allow a non-loopback http:// service address, whose traffic (your token included) anyone on the path can read (LCS_INSECURE=1 does the same)',
      false,
    )
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io().stdout.write(text), writeErr: (text) => io().stderr.write(text) })
    // One switch for every command and the MCP server, which read it where they connect (config.ts).
    .hook('preAction', (command) => {
      if (command.opts().insecure) io().env.LCS_INSECURE = '1';
    });
  accountCommands(lcs);
  libraryCommands(lcs);
  writingCommands(lcs);
  exportCommands(lcs);
  ankiCommands(lcs);
  importCommands(lcs);
  lcs.command('mcp').description('serve the Model Context Protocol over stdio for an agent (configured by LCS_URL and LCS_TOKEN)').action(serveMcp);
  return lcs;
}

/** Runs `lcs` with `argv` (the arguments after the program's name); its exit code. */
export function run(argv: string[], runIo: Io): Promise<number> {
  return withIo(runIo, async () => {
    try {
      await program().parseAsync(argv, { from: 'user' });
    } catch (error) {
      // Help and --version end well; any other parsing failure is a usage error.
      if (error instanceof CommanderError) exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
      fail(error, argv.includes('--json'));
    }
  });
}
