import type { Command } from 'commander';
import { DEFAULT_ANKI_CONNECT_URL, pushToAnki } from '../anki-connect.ts';
import { api, isJson } from '../context.ts';
import { output } from '../terminal.ts';

/** anki push. */
export function ankiCommands(program: Command) {
  program
    .command('anki')
    .description('your cards in a local Anki')
    .command('push')
    .description(`send new and changed prepared cards to Anki through AnkiConnect (deck "Language Capture")`)
    .option('--anki-url <url>', "AnkiConnect's address", DEFAULT_ANKI_CONNECT_URL)
    .option('--sync', "then sync Anki with AnkiWeb (AnkiConnect's sync), so the cards reach AnkiDroid and AnkiWeb")
    .action(async ({ ankiUrl, sync }: { ankiUrl: string; sync?: boolean }, command: Command) => {
      const summary = await pushToAnki(await api(), ankiUrl, { sync: sync === true });
      output(isJson(command), summary, () =>
        [
          `${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.skipped.length} skipped` +
            (summary.synced ? '; synced with AnkiWeb' : ''),
          ...summary.skipped.map((s) => `  skipped “${s.text}” (${s.cardId}): ${s.reason}`),
        ].join('\n'),
      );
    });
}
