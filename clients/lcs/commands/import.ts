import type { Command } from 'commander';
import { api, CliError, isJson } from '../context.ts';
import { followImport, getImport, importDone, importNote, readImportFile, uploadImport } from '../imports.ts';
import { printError, setExitCode } from '../io.ts';
import { EXIT } from '../exit.ts';
import { ServiceError } from '../service.ts';
import { importProgress, output } from '../terminal.ts';

const FORMATS = ['lines', 'csv', 'tsv', 'anki', 'kindle', 'apkg', 'koreader'];

/** `lcs import FILE`: a file brought in as an import, followed until it stops. */
export function importCommands(program: Command) {
  program
    .command('import')
    .description(
      'import a file: plain lines, CSV/TSV (--column), Anki notes text or package (.apkg, .colpkg), Kindle vocab.db, KOReader vocabulary, or an lcs export',
    )
    .argument('[file]', 'the file')
    .option('--format <format>', `${FORMATS.join('|')} (detected when left out)`)
    .option('--column <name|n>', 'CSV/TSV: the column holding the expressions (a header name or a 1-based number)')
    .option('--header', 'CSV/TSV: the first row names the columns')
    .option(
      '--deck <name>',
      'Anki package: a deck to import, with its subdecks (repeat for several; all when left out)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--field <name>', "Anki package: the field holding the expression (each note type's first when left out)")
    .option('--sentence-field <name>', "Anki package: a field holding the sentence, kept as the card's context")
    .option('--history', "Anki package: bring each card's reviews; its due date is computed from them")
    .option('--book-titles', "KOReader: keep each word's book title with its row")
    .option('--no-wait', 'print the import id and return; follow it with lcs import --status ID')
    .option('--status <importId>', 'follow an import already sent')
    .option('--cancel <importId>', 'cancel an import: what is saved stays')
    .action(
      async (
        file: string | undefined,
        options: {
          format?: string;
          column?: string;
          header?: boolean;
          deck: string[];
          field?: string;
          sentenceField?: string;
          history?: boolean;
          bookTitles?: boolean;
          wait: boolean;
          status?: string;
          cancel?: string;
        },
        command: Command,
      ) => {
        const json = isJson(command);
        const service = await api();
        if (options.cancel) {
          const { import: view } = await service.call((c) =>
            c.POST('/api/library/imports/{importId}/cancel', { params: { path: { importId: options.cancel! } } }),
          );
          output(json, { import: view }, () => view.outcome?.message ?? `Import ${view.importId}: ${view.state}.`);
          return;
        }
        let importId = options.status;
        if (!importId) {
          if (!file) throw new CliError('Give a file to import (or --status ID).', EXIT.usage);
          if (options.format && !FORMATS.includes(options.format)) throw new CliError(`--format is one of ${FORMATS.join(', ')}.`, EXIT.usage);
          const created = await uploadImport(service, file, await readImportFile(file), {
            format: options.format,
            column: options.column,
            header: options.header,
            decks: options.deck,
            field: options.field,
            sentenceField: options.sentenceField,
            history: options.history,
            bookTitles: options.bookTitles,
          }).catch((error: unknown) => {
            throw withRunningImport(error);
          });
          importId = created.import.importId;
          const { parsed } = created;
          const skipped = Object.entries(parsed.skipped)
            .filter(([, n]) => n > 0)
            .map(([why, n]) => `${n} ${why.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`);
          if (!json) {
            printError(
              `${created.replayed ? 'Already imported' : 'Importing'} ${parsed.expressions} expressions from ${file} (import ` +
                `${importId})${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}.`,
            );
            for (const problem of created.import.problems.slice(0, 10)) printError(`  ${problem.message}`);
            if (created.import.problemsTotal > 10)
              printError(`  … ${created.import.problemsTotal - 10} more problems (lcs import --status ${importId} --json)`);
          }
          if (!options.wait) {
            output(json, created, () => importId!);
            return;
          }
        }
        const bar = importProgress(`import ${importId.slice(0, 8)}`);
        // Ctrl-C leaves the import running on the service. Removed after: runs in one process (the tests') must not pile up listeners.
        const interrupted = () => {
          bar.end();
          printError(`The import goes on in the service: lcs import --status ${importId}`);
          process.exit(EXIT.ok);
        };
        process.once('SIGINT', interrupted);
        const view = await followImport(service, importId, (v) => bar.update(importDone(v), v.counts.total, importNote(v))).finally(() =>
          process.off('SIGINT', interrupted),
        );
        bar.end();
        const final = await getImport(service, importId);
        output(json, { import: final }, () => final.outcome?.message ?? `Import ${final.importId}: ${final.state}.`);
        const failed = Object.values(view.counts.failed).reduce((a, b) => a + b, 0);
        setExitCode(view.state === 'waiting_for_credits' ? EXIT.noCredits : failed > 0 ? EXIT.failure : EXIT.ok);
      },
    );
}

/** One import runs at a time: the refusal names the one running and how to follow or cancel it. */
function withRunningImport(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.code !== 'conflict') return error;
  const running = error.extensions.importId;
  if (typeof running !== 'string') return error;
  return new CliError(`${error.message} Follow it: lcs import --status ${running}. Cancel it: lcs import --cancel ${running}.`, error.exitCode);
}
