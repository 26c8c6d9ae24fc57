import type { Command } from 'commander';
import { runBatch } from '../batch.ts';
import { api, type Card, cardDetail, cardLine, CliError, isJson } from '../context.ts';
import { PREPARATION_STATUSES, searchLibrary } from '../library.ts';
import { printError, setExitCode } from '../io.ts';
import { EXIT } from '../exit.ts';
import { output, progress, stdinLines } from '../terminal.ts';
import { followImport, importList, importRows } from '../imports.ts';
import { cleanCaptureText, normaliseExpression } from '../../../src/domain/normalise.ts';

/** `lcs capture` with more lines than this goes through an import. */
const CAPTURE_BY_IMPORT_ABOVE = 10;

/** Many lines as one import: waits until they are saved, then says per line what became of it, as a capture does. */
async function captureByImport(lines: string[], json: boolean) {
  const service = await api();
  const created = await importList(service, lines, 'lcs capture');
  await followImport(service, created.import.importId, () => {}, 'saved');
  const rows = await importRows(service, created.import.importId);
  const byKey = new Map(rows.map((row) => [normaliseExpression(row.text), row]));
  const problems = new Map(created.import.problems.map((p) => [p.line, p]));
  const seen = new Set<string>();
  const items = lines.map((line, i) => {
    const key = normaliseExpression(cleanCaptureText(line));
    const row = byKey.get(key);
    if (!row || !row.cardId) {
      const problem = problems.get(i + 1);
      return { text: line, outcome: 'failed', code: problem?.code ?? 'invalid_request', detail: problem?.message ?? 'not imported' };
    }
    const outcome = seen.has(key) ? 'reused' : (row.outcome ?? 'new');
    seen.add(key);
    return { text: line, outcome, cardId: row.cardId };
  });
  const count = (outcome: string) => items.filter((i) => i.outcome === outcome).length;
  const summary = { new: count('new'), reused: count('reused'), failed: count('failed'), importId: created.import.importId };
  if (!json) for (const i of items) if (i.outcome === 'failed') printError(`lcs: ${i.text}: ${(i as { detail?: string }).detail}`);
  output(json, { items, ...summary }, () =>
    [
      ...items.filter((i) => i.outcome !== 'failed').map((i) => `${i.outcome.padEnd(6)}  ${(i as { cardId?: string }).cardId}  ${i.text}`),
      `${summary.new} new, ${summary.reused} reused, ${summary.failed} failed (import ${summary.importId}: preparation goes on in the background; lcs ` +
        `import --status ${summary.importId})`,
    ].join('\n'),
  );
  setExitCode(summary.failed > 0 ? EXIT.failure : EXIT.ok);
}

/** capture, list, show, delete, retry. */
export function libraryCommands(program: Command) {
  program
    .command('capture')
    .description('capture an expression; with no text or `-`, one expression per line of stdin')
    .argument('[text...]', 'the expression (words are joined with spaces)')
    .option('--concurrency <n>', 'requests in flight for stdin batches', '4')
    .option('--context <sentence>', 'the sentence you met it in: it chooses the sense, and stays on the card (one expression only)')
    .action(async (words: string[], { concurrency, context }: { concurrency: string; context?: string }, command: Command) => {
      const fromStdin = words.length === 0 || (words.length === 1 && words[0] === '-');
      if (fromStdin && context !== undefined) throw new CliError('--context goes with one expression given as arguments, not with stdin.', EXIT.usage);
      const lines = fromStdin ? await stdinLines() : [words.join(' ')];
      if (lines.length === 0) throw new CliError('Nothing to capture: give an expression, or lines on stdin.', EXIT.usage);
      // Beyond a few lines, one import: saved at once, prepared at the pace the budget allows, no line refused for a 429.
      if (lines.length > CAPTURE_BY_IMPORT_ABOVE) return captureByImport(lines, isJson(command));
      const bar = progress(lines.length);
      const service = await api({ onWait: (seconds) => bar.note(`rate limited: waiting ${seconds}s`) });
      const { results, exitCode } = await runBatch(
        lines,
        Math.max(1, Number(concurrency) || 4),
        bar,
        async (text) => {
          const body = context === undefined ? { text } : { text, context };
          const { card, reused } = (await service.call((c) => c.POST('/api/library', { body }))) as { card: Card; reused?: boolean };
          return { card, reused: reused === true };
        },
        normaliseExpression,
      );
      const items = results.map((r) =>
        r.ok
          ? { text: r.line, outcome: r.value.reused ? 'reused' : 'new', cardId: r.value.card.cardId }
          : { text: r.line, outcome: 'failed', code: r.code, detail: r.detail },
      );
      const count = (outcome: string) => items.filter((i) => i.outcome === outcome).length;
      const summary = { new: count('new'), reused: count('reused'), failed: count('failed') };
      // Failures go to stderr with their reason; stdout keeps what was captured and the summary.
      if (!isJson(command)) for (const i of items) if (i.outcome === 'failed') printError(`lcs: ${i.text}: ${i.detail}`);
      output(isJson(command), { items, ...summary }, () =>
        [
          ...items.filter((i) => i.outcome !== 'failed').map((i) => `${i.outcome.padEnd(6)}  ${i.cardId}  ${i.text}`),
          `${summary.new} new, ${summary.reused} reused, ${summary.failed} failed`,
        ].join('\n'),
      );
      setExitCode(exitCode);
    });

  program
    .command('list')
    .description('list and search the library, newest first')
    .option('--query <q>', 'matches text and translation, case- and accent-insensitive')
    .option('--status <status>', `only cards whose preparation is ${PREPARATION_STATUSES.join('|')}`)
    .option('--limit <n>', 'at most this many cards', '50')
    .action(async ({ query, status, limit }: { query?: string; status?: string; limit: string }, command: Command) => {
      if (status && !(PREPARATION_STATUSES as readonly string[]).includes(status))
        throw new CliError(`--status is one of ${PREPARATION_STATUSES.join(', ')}.`, EXIT.usage);
      const wanted = Number(limit);
      if (!Number.isInteger(wanted) || wanted < 1) throw new CliError('--limit is a whole number of cards, at least 1.', EXIT.usage);
      const shown = await searchLibrary(await api(), { query, status: status as Card['enrichmentStatus'] | undefined, limit: wanted });
      output(isJson(command), { items: shown }, () => shown.map(cardLine).join('\n') || 'No cards.');
    });

  program
    .command('show')
    .description('one card with its preparation and scheduling')
    .argument('<cardId>')
    .action(async (cardId: string, _options, command: Command) => {
      const { card } = await (await api()).call((c) => c.GET('/api/library/{cardId}', { params: { path: { cardId } } }));
      output(isJson(command), { card }, () => cardDetail(card));
    });

  program
    .command('delete')
    .description('delete a card and its learning data')
    .argument('<cardId>')
    .action(async (cardId: string, _options, command: Command) => {
      await (await api()).call((c) => c.DELETE('/api/library', { params: { query: { cardId } } }));
      output(isJson(command), { deleted: true, cardId }, () => `Deleted ${cardId}.`);
    });

  // `refresh` was this command's name: it still answers, out of the help, for the scripts that call it.
  for (const [name, hidden] of [
    ['retry', false],
    ['refresh', true],
  ] as const) {
    program
      .command(name, { hidden })
      .description('retry a failed card: prepare it again')
      .argument('<cardId>')
      .action(async (cardId: string, _options, command: Command) => {
        const { card } = await (await api()).call((c) => c.PATCH('/api/library', { body: { cardId, action: 'refresh_enrichment' } }));
        output(isJson(command), { card }, () => `Preparing again: ${cardLine(card)}`);
      });
  }
}
