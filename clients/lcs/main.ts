/**
 * `lcs`: the language-capture service from a terminal, a script or an agent (`lcs mcp`). Every
 * command goes through the shared REST client with a personal token; `--json` on every command.
 * The launcher (lcs.sh) runs this from the clone's root, so it moves back to the caller's directory.
 */
import { Command, CommanderError } from 'commander';
import { accountCommands } from './commands/account.ts';
import { ankiCommands } from './commands/anki.ts';
import { libraryCommands } from './commands/library.ts';
import { exportCommands } from './commands/export.ts';
import { importCommands } from './commands/import.ts';
import { writingCommands } from './commands/writing.ts';
import { fail } from './context.ts';
import { serveMcp } from './mcp/server.ts';
import { EXIT } from './exit.ts';

if (process.env.LCS_CWD) process.chdir(process.env.LCS_CWD);

const program = new Command('lcs')
  .description('Capture English expressions into your language-capture library, search it, and take it elsewhere.')
  .option('--json', 'machine-readable output', false)
  .option(
    '--insecure',
    'allow a non-loopback http:// service address, whose traffic (your token included) anyone on the path can read (LCS_INSECURE=1 does the same)',
    false,
  )
  .showHelpAfterError()
  .exitOverride()
  // One switch for every command and the MCP server, which read it where they connect (config.ts).
  .hook('preAction', (command) => {
    if (command.opts().insecure) process.env.LCS_INSECURE = '1';
  });

accountCommands(program);
libraryCommands(program);
writingCommands(program);
exportCommands(program);
ankiCommands(program);
importCommands(program);
program.command('mcp').description('serve the Model Context Protocol over stdio for an agent (configured by LCS_URL and LCS_TOKEN)').action(serveMcp);

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and --version end well; any other parsing failure is a usage error.
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  fail(error, process.argv.includes('--json'));
}
