import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { EXPORT_FORMATS } from '../../../src/features/library/export-format.ts';
import { api, CliError, isJson } from '../context.ts';
import { fromCwd, io } from '../io.ts';
import { EXIT } from '../exit.ts';
import { output } from '../terminal.ts';

/** export: the server's streamed export, to a file or stdout. */
export function exportCommands(program: Command) {
  program
    .command('export')
    .description(`export the library (${EXPORT_FORMATS.join('|')}); Anki: File → Import the .txt`)
    .option('--format <format>', EXPORT_FORMATS.join('|'), 'csv')
    .option('-o, --output <file>', 'write to this file (stdout otherwise)')
    .action(async ({ format, output: file }: { format: string; output?: string }, command: Command) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format is one of ${EXPORT_FORMATS.join(', ')}.`, EXIT.usage);
      const body = await (await api()).call((c) => c.GET('/api/library/export', { params: { query: { format: format as 'csv' } }, parseAs: 'stream' }));
      if (!body) throw new CliError('The service sent no export.', EXIT.unavailable);
      const source = Readable.fromWeb(body);
      if (!file) {
        // stdout is the file itself; it stays open for whatever follows in the shell.
        await pipeline(
          source,
          new Writable({ write: (chunk: Buffer, _encoding, done) => (io().stdout.write(chunk) ? done() : io().stdout.once('drain', done)) }),
        );
        return;
      }
      await pipeline(source, createWriteStream(fromCwd(file)));
      const { size } = await stat(fromCwd(file));
      output(isJson(command), { format, file, bytes: size }, () => `Wrote ${format} export to ${file} (${size} bytes).`);
    });
}
