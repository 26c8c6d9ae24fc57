// Operator command: `npm run ops -- <command>` (`--help` lists them). Same configuration as the
// worker (DATABASE_URL, TEMPORAL_ADDRESS), or what a running `npm start` wrote into DATA_DIR.
// Human output by default, `--json` for scripts; it prints ids and codes, never learners' text.
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { createOrm, type Orm } from '../db/orm.ts';
import { parseDuration } from '../domain/durations.ts';
import { findUserIdByEmail } from '../features/account/service.ts';
import { spendByKind } from '../features/credits/operator-reads.ts';
import { getWallet } from '../features/credits/wallet.ts';
import { cardCountsByStatus, cardsPreparedBy, extraPreparationCalls, failedCards } from '../features/library/operator-reads.ts';
import { prepareAgain, retryPreparation } from '../features/library/service.ts';
import { failedSentences, sentenceCountsByStatus } from '../features/sentences/operator-reads.ts';
import { connectTemporal } from '../temporal/connection.ts';
import { OperatorError, operatorContext, operatorDatabaseUrl, operatorTemporalAddress } from './operator-config.ts';

const config = loadConfig();
const INFRASTRUCTURE_CODES = 'service_unavailable,internal_error';

const since = (text: string): Date => {
  const ms = parseDuration(text);
  if (ms === null) throw new InvalidArgumentError('a duration such as 30m, 1h, 24h or 7d');
  return new Date(Date.now() - ms);
};
const codes = (text: string): string[] =>
  text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

async function withDatabase<T>(work: (orm: Orm) => Promise<T>): Promise<T> {
  const orm = await createOrm(operatorDatabaseUrl(config), { poolMax: 2 });
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

async function userIdOf(orm: Orm, email: string): Promise<string> {
  const userId = await findUserIdByEmail(operatorContext(config, orm), email);
  if (!userId) throw new OperatorError(`No account with email ${email}`);
  return userId;
}

const print = (json: boolean, value: unknown, human: () => string) => console.log(json ? JSON.stringify(value, null, 2) : human());

const program = new Command('ops')
  .description("Answers an operator's questions about users, failures and costs.")
  .option('--json', 'machine-readable output', false)
  .showHelpAfterError();

program
  .command('user')
  .description('the user id, plan, balance, what they have, and a Temporal UI link to their workflows')
  .argument('<email>')
  .action((email: string) =>
    withDatabase(async (orm) => {
      const ctx = operatorContext(config, orm);
      const userId = await userIdOf(orm, email);
      const wallet = await getWallet(ctx, userId);
      const query = encodeURIComponent(`LcsUserId="${userId}"`);
      const report = {
        userId,
        plan: wallet.plan,
        balance: wallet.balance,
        held: wallet.held,
        periodEnd: wallet.periodEnd,
        cards: await cardCountsByStatus(ctx, userId),
        sentences: await sentenceCountsByStatus(ctx, userId),
        workflows: `${config.temporal.uiUrl}/namespaces/${config.temporal.namespace}/workflows?query=${query}`,
      };
      print(program.opts<{ json: boolean }>().json, report, () =>
        [
          `user       ${report.userId}`,
          `plan       ${report.plan}, balance ${report.balance} credits (${report.held} held) until ${report.periodEnd}`,
          `cards      ${counts(report.cards)}`,
          `sentences  ${counts(report.sentences)}`,
          `workflows  ${report.workflows}`,
        ].join('\n'),
      );
    }),
  );

program
  .command('failed')
  .description('cards and sentences whose preparation failed, by code')
  .option('--since <duration>', 'how far back (default 1h)', since)
  .option('--code <code>', 'only this failure code')
  .option('--user <email>', "only this user's")
  .action(({ since: after = since('1h'), code, user }: { since?: Date; code?: string; user?: string }) =>
    withDatabase(async (orm) => {
      const options = { since: after, code };
      const ctx = operatorContext(config, orm);
      const userId = user ? await userIdOf(orm, user) : null;
      const cards = await failedCards(ctx, options.since, options.code ?? null, userId);
      const sentences = await failedSentences(ctx, options.since, options.code ?? null, userId);
      const byCode = (rows: { code: string }[]) => rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.code]: (acc[r.code] ?? 0) + 1 }), {});
      print(program.opts<{ json: boolean }>().json, { since: options.since, cards, sentences }, () =>
        [
          `since ${options.since.toISOString()}`,
          `cards      ${cards.length} failed${cards.length ? `: ${counts(byCode(cards))}` : ''}`,
          ...cards.slice(0, 20).map((c) => `  card ${c.cardId}  ${c.code}  ${c.failedAt.toISOString()}  user ${c.userId}`),
          `sentences  ${sentences.length} failed${sentences.length ? `: ${counts(byCode(sentences))}` : ''}`,
          ...sentences.slice(0, 20).map((s) => `  sentence ${s.sentenceId}  ${s.code}  ${s.failedAt.toISOString()}  user ${s.userId}`),
          ...(cards.length > 20 || sentences.length > 20 ? ['(the first 20 of each; --json lists all)'] : []),
        ].join('\n'),
      );
    }),
  );

program
  .command('retry')
  // Its name before the glossary, kept for the scripts that call it.
  .alias('redrive')
  .description("retries failed cards: prepares them again as a learner's retry does (the new attempt is charged once, when it succeeds)")
  .option('--since <duration>', 'cards that failed since (default 24h)', since)
  .option('--code <codes>', 'comma-separated failure codes', INFRASTRUCTURE_CODES)
  .option('--user <email>', "only this user's cards")
  .option('--dry-run', 'only say which cards', false)
  .action(({ since: after = since('24h'), user, ...rest }: { since?: Date; code: string; user?: string; dryRun: boolean }) =>
    withDatabase(async (orm) => {
      const options = { since: after, ...rest };
      const wanted = codes(options.code);
      const userId = user ? await userIdOf(orm, user) : null;
      const cards = (await failedCards(operatorContext(config, orm), options.since, null, userId)).filter((c) => wanted.includes(c.code));
      if (options.dryRun)
        return print(program.opts<{ json: boolean }>().json, { cards }, () => `${cards.length} card(s) would be prepared again (codes ${wanted.join(', ')})`);
      const outcomes = (await eachCard(orm, cards, (ctx, card) => retryPreparation(ctx, card.userId, card.cardId))).map(({ done, ...o }) => ({
        ...o,
        retried: done,
      }));
      const retried = outcomes.filter((o) => o.retried).length;
      print(program.opts<{ json: boolean }>().json, { outcomes }, () =>
        [
          `${retried} of ${cards.length} card(s) prepared again (codes ${wanted.join(', ')}, failed since ${options.since.toISOString()})`,
          ...outcomes.filter((o) => !o.retried).map((o) => `  skipped ${o.cardId}: ${o.reason}`),
        ].join('\n'),
      );
    }),
  );

program
  .command('prepare-again')
  .description(
    'prepares again, with the current model, the ready cards a model prepared, as a learner\'s "Prepare again" does ' +
      '(each is charged to its learner as a preparation)',
  )
  .requiredOption('--model <name>', 'the model whose cards to prepare again, as cards record it (preparedByModel)')
  .option('--user <email>', "only this user's cards")
  .option('--dry-run', 'only say which cards', false)
  .action(({ model, user, dryRun }: { model: string; user?: string; dryRun: boolean }) =>
    withDatabase(async (orm) => {
      const userId = user ? await userIdOf(orm, user) : null;
      const cards = await cardsPreparedBy(operatorContext(config, orm), model, userId);
      const json = program.opts<{ json: boolean }>().json;
      if (dryRun)
        return print(json, { cards }, () => `${cards.length} card(s) prepared by ${model} would be prepared again with the deployment’s current model`);
      const outcomes = (await eachCard(orm, cards, (ctx, card) => prepareAgain(ctx, card.userId, card.cardId))).map(({ done, ...o }) => ({
        ...o,
        prepared: done,
      }));
      print(json, { outcomes }, () =>
        [
          `${outcomes.filter((o) => o.prepared).length} of ${cards.length} card(s) prepared by ${model} ` +
            'are being prepared again with the deployment’s current model',
          ...outcomes.filter((o) => !o.prepared).map((o) => `  skipped ${o.cardId}: ${o.reason}`),
        ].join('\n'),
      );
    }),
  );

program
  .command('costs')
  .description('provider USD behind the charges, beside the credits charged, by kind')
  .option('--since <duration>', 'how far back (default 24h)', since)
  .action(({ since: after = since('24h') }: { since?: Date }) =>
    withDatabase(async (orm) => {
      const options = { since: after };
      const ctx = operatorContext(config, orm);
      const kinds = await spendByKind(ctx, options.since);
      const extraCalls = await extraPreparationCalls(ctx, options.since);
      print(program.opts<{ json: boolean }>().json, { since: options.since, kinds, unbilledPreparationCalls: extraCalls }, () =>
        [
          `since ${options.since.toISOString()}`,
          `${'kind'.padEnd(22)} ${'charges'.padStart(8)} ${'credits'.padStart(9)} ${'provider USD'.padStart(14)} ${'USD/credit'.padStart(11)}`,
          ...kinds.map(
            (k) =>
              `${k.kind.padEnd(22)} ${String(k.charges).padStart(8)} ${String(k.credits).padStart(9)} ${Number(k.providerUsd).toFixed(6).padStart(14)} ` +
              `${(k.credits ? Number(k.providerUsd) / k.credits : 0).toFixed(6).padStart(11)}`,
          ),
          `card preparation calls beyond the charged one (retries, at-least-once duplicates, not billed): ${extraCalls}`,
          'Their cost per process: lcs_provider_unbilled_cost_usd_total on the metrics listener.',
        ].join('\n'),
      );
    }),
  );

/**
 * Starts the preparation of each card in turn, with Temporal at hand; a card retried, prepared or
 * deleted meanwhile is skipped with the reason (the learner's own action wins).
 */
async function eachCard(
  orm: Orm,
  cards: readonly { cardId: string; userId: string }[],
  act: (ctx: ReturnType<typeof operatorContext>, card: { cardId: string; userId: string }) => Promise<unknown>,
): Promise<{ cardId: string; done: boolean; reason?: string }[]> {
  const temporal = await connectTemporal(operatorTemporalAddress(config), config.temporal.namespace);
  const outcomes: { cardId: string; done: boolean; reason?: string }[] = [];
  try {
    for (const card of cards) {
      try {
        await act(operatorContext(config, orm, temporal), card);
        outcomes.push({ cardId: card.cardId, done: true });
      } catch (error) {
        outcomes.push({ cardId: card.cardId, done: false, reason: (error as Error).message });
      }
    }
  } finally {
    await temporal.connection.close();
  }
  return outcomes;
}

function counts(byKey: Record<string, number>): string {
  const entries = Object.entries(byKey);
  return entries.length ? entries.map(([k, n]) => `${n} ${k}`).join(', ') : 'none';
}

try {
  await program.parseAsync();
} catch (error) {
  if (!(error instanceof OperatorError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}
