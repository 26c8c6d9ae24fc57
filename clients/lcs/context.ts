/**
 * What every command shares: `--json`, the connection (env, else the config file), and the one
 * way a failure ends the process (the problem's detail on stderr, never a stack, and its exit code).
 */
import type { Command } from 'commander';
import type { components } from '../rest/client.ts';
import { resolveConnection } from './config.ts';
import { exit, print, printError } from './io.ts';
import { CliError, EXIT } from './exit.ts';
import { type Api, connect, ServiceError } from './service.ts';

export type Card = components['schemas']['Card'];

export { CliError };

export const isJson = (command: Command): boolean => Boolean(command.optsWithGlobals().json);

/** The service through the shared REST client, waiting out 429s; a missing token is exit 3. */
export async function api(options: { onWait?: (seconds: number) => void } = {}): Promise<Api> {
  const connection = await resolveConnection();
  if (!connection) throw new CliError('Not logged in: run `lcs login`, or set LCS_TOKEN (and LCS_URL).', EXIT.auth);
  return connect(connection, { rateLimitRetries: 5, ...options });
}

/** Reports a failure as the lead promised scripts: JSON on stdout with --json, the detail on stderr always. */
export function fail(error: unknown, json: boolean): never {
  if (error instanceof ServiceError || error instanceof CliError) {
    if (json) {
      const code = error instanceof ServiceError ? error.code : 'cli_error';
      print(
        JSON.stringify(
          {
            error: {
              code,
              detail: error.message,
              ...(error instanceof ServiceError ? { status: error.status, retryAfterSeconds: error.retryAfterSeconds } : {}),
            },
          },
          null,
          2,
        ),
      );
    }
    printError(`lcs: ${error.message}`);
    exit(error.exitCode);
  }
  throw error;
}

/** One line per card for lists, then its preparation when shown alone. */
export function cardLine(card: Card): string {
  const translation = card.enrichment ? `  →  ${card.enrichment.translation}` : '';
  const waiting = card.enrichmentStatus === 'pending' && card.enrichmentWaiting ? ` (${card.enrichmentWaiting.message.toLowerCase()})` : '';
  return `${card.cardId}  ${card.enrichmentStatus.padEnd(7)}  ${card.text}${translation}${waiting}`;
}

export function cardDetail(card: Card & { scheduling?: { state: string; due: string; reps: number; lapses: number } }): string {
  const lines = [cardLine(card)];
  const e = card.enrichment;
  if (e) {
    if (e.correctedText) lines.push(`  corrected: ${e.correctedText}${e.correctionNote ? ` (${e.correctionNote})` : ''}`);
    lines.push(`  usage (${e.usage.register}): ${e.usage.guidance}`);
    for (const example of e.usage.examples) lines.push(`  e.g. ${example}`);
    for (const focus of e.focuses) lines.push(`  ${focus.kind}: ${focus.note}`);
  }
  if (card.enrichmentError) lines.push(`  failed: ${card.enrichmentError.message} (${card.enrichmentError.code}); \`lcs retry ${card.cardId}\` tries again`);
  if (card.scheduling) lines.push(`  ${card.scheduling.state}, due ${card.scheduling.due}, ${card.scheduling.reps} reviews, ${card.scheduling.lapses} lapses`);
  return lines.join('\n');
}
