import type { Command } from 'commander';
import { LIST_LIMIT_MAX, TOKEN_PREFIX } from '../../../src/domain/limits.ts';
import { DEFAULT_URL, removeConnection, resolveConnection, saveConnection } from '../config.ts';
import { api, CliError, isJson } from '../context.ts';
import { EXIT } from '../exit.ts';
import { connect } from '../service.ts';
import { ask, output } from '../terminal.ts';

/** login, logout, credits. */
export function accountCommands(program: Command) {
  program
    .command('login')
    .description('store the service address and a personal token (checked with /api/me) in ~/.config/lcs/config.json')
    .action(async (_options, command: Command) => {
      const current = await resolveConnection();
      const [url, token] = await ask([
        { text: `Service address [${current?.url ?? DEFAULT_URL}]: ` },
        { text: `Personal token (${TOKEN_PREFIX}…, hidden): `, hidden: true },
      ]);
      if (!token) throw new CliError('No token given. Create one in the web app under Settings → API tokens.', EXIT.usage);
      const connection = { url: url || current?.url || DEFAULT_URL, token };
      const me = await connect(connection, { rateLimitRetries: 1 }).call((c) => c.GET('/api/me'));
      const file = await saveConnection(connection);
      output(
        isJson(command),
        { email: me.email, access: me.access, url: connection.url, configFile: file },
        () => `Logged in to ${connection.url} as ${me.email} (${me.access} token); saved to ${file}`,
      );
    });

  program
    .command('logout')
    .description('remove the stored address and token')
    .action(async (_options, command: Command) => {
      const removed = await removeConnection();
      output(isJson(command), { removed }, () => (removed ? 'Logged out: the stored token is removed.' : 'Nothing stored; nothing to remove.'));
    });

  const credits = program
    .command('credits')
    .description('the credit balance and plan')
    .action(async (_options, command: Command) => {
      const service = await api();
      const wallet = await service.call((c) => c.GET('/api/credits'));
      output(
        isJson(command),
        wallet,
        () =>
          `${wallet.balance - wallet.held} of ${wallet.monthlyAllowance} credits available (${wallet.held} held), ${wallet.plan} plan, renews ` +
          `${wallet.periodEnd}`,
      );
    });

  credits
    .command('ledger')
    .description('charges and grants, newest first')
    .option('--limit <n>', `entries (1..${LIST_LIMIT_MAX})`, '20')
    .action(async ({ limit }: { limit: string }, command: Command) => {
      const service = await api();
      const page = await service.call((c) => c.GET('/api/credits/ledger', { params: { query: { limit: Number(limit) } } }));
      output(
        isJson(command),
        page,
        () =>
          page.items
            .map((e) => `${e.createdAt}  ${String(e.amount).padStart(6)}  → ${String(e.balanceAfter).padStart(5)}  ${e.kind}  ${e.reason}`)
            .join('\n') || 'No entries yet.',
      );
    });
}
