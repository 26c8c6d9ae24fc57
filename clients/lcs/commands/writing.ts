import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { TONES } from '../../../src/features/drafts/schemas.ts';
import { runBatch } from '../batch.ts';
import { api, CliError, isJson } from '../context.ts';
import { fromCwd, printError, setExitCode } from '../io.ts';
import { EXIT } from '../exit.ts';
import { ServiceError } from '../service.ts';
import { output, progress, stdinText } from '../terminal.ts';
import { translateTexts } from '../translate.ts';

/** A file's text, or stdin's for `-`. */
const readInput = (file: string) => (file === '-' ? stdinText() : readFile(fromCwd(file), 'utf8'));

/** sentence add/import, translate, draft: the service's writing and translating. */
export function writingCommands(program: Command) {
  const sentence = program.command('sentence').description('save sentences with their translation');

  sentence
    .command('add')
    .description('save one sentence and print its translation')
    .argument('<text...>')
    .action(async (words: string[], _options, command: Command) => {
      const { sentence: saved } = await (await api()).call((c) => c.POST('/api/sentences', { body: { original_text: words.join(' ') } }));
      output(isJson(command), { sentence: saved }, () => `${saved.original_text}\n→ ${saved.translation ?? `(${saved.status})`}`);
    });

  sentence
    .command('import')
    .description('save one sentence per line of a file (or `-` for stdin); translated in the background')
    .argument('<file>')
    .option('--concurrency <n>', 'requests in flight', '4')
    .action(async (file: string, { concurrency }: { concurrency: string }, command: Command) => {
      const lines = (await readInput(file))
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      if (lines.length === 0) throw new CliError('No sentences in the input.', EXIT.usage);
      const bar = progress(lines.length);
      const service = await api({ onWait: (seconds) => bar.note(`rate limited: waiting ${seconds}s`) });
      const { results, exitCode } = await runBatch(lines, Math.max(1, Number(concurrency) || 4), bar, async (text) => {
        try {
          const { sentence: saved } = await service.call((c) =>
            c.POST('/api/sentences', {
              params: { query: { mode: 'async' } },
              headers: { 'X-Service-Async': '1' },
              body: { original_text: text },
            }),
          );
          return { outcome: 'queued' as const, id: saved.id };
        } catch (error) {
          // Saved before: not a failure of this import.
          if (error instanceof ServiceError && error.code === 'duplicate_sentence') return { outcome: 'duplicate' as const, id: null };
          throw error;
        }
      });
      const items = results.map((r) => (r.ok ? { text: r.line, ...r.value } : { text: r.line, outcome: 'failed', code: r.code, detail: r.detail }));
      const count = (outcome: string) => items.filter((i) => i.outcome === outcome).length;
      const summary = { queued: count('queued'), duplicate: count('duplicate'), failed: count('failed') };
      if (!isJson(command)) for (const i of items) if ('detail' in i) printError(`lcs: ${i.text}: ${i.detail}`);
      output(
        isJson(command),
        { items, ...summary },
        () => `${summary.queued} queued for translation, ${summary.duplicate} already saved, ${summary.failed} failed`,
      );
      setExitCode(exitCode);
    });

  program
    .command('translate')
    .description('translate a file (or `-` for stdin) paragraph by paragraph; a rerun of the same text is free')
    .argument('<file>')
    .requiredOption('--to <language>', 'the language to translate into (GET /api/languages)')
    .option('--from <language>', 'the source language, or auto', 'auto')
    .action(async (file: string, { to, from }: { to: string; from: string }, command: Command) => {
      const paragraphs = (await readInput(file))
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean);
      if (paragraphs.length === 0) throw new CliError('Nothing to translate.', EXIT.usage);
      const result = await translateTexts(await api(), paragraphs, to, from);
      output(isJson(command), result, () => result.translations.map((t) => t.text).join('\n\n'));
    });

  program
    .command('draft')
    // Its name before the glossary, kept for the scripts that call it.
    .alias('work')
    .description('draft English from what you want to say (any language)')
    .argument('<prompt...>')
    .option('--tone <tone>', TONES.join('|'), 'neutral')
    .option('--use-library', 'use expressions from your library', false)
    .action(async (words: string[], { tone, useLibrary }: { tone: string; useLibrary: boolean }, command: Command) => {
      if (!(TONES as readonly string[]).includes(tone)) throw new CliError(`--tone is one of ${TONES.join(', ')}.`, EXIT.usage);
      const draft = await (await api()).call((c) => c.POST('/api/work', { body: { prompt: words.join(' '), tone: tone as 'neutral', useLibrary } }));
      output(isJson(command), draft, () => [draft.english, ...draft.notes.map((n) => `  · ${n}`)].join('\n'));
    });
}
