/**
 * A run's one table: what was acknowledged and lost, what is still pending or failed, what was
 * charged twice, the 5xx answers by kind and phase, and how each process came back after each
 * fault. Goals are checked here; any that fails makes the run exit non-zero.
 */
import type { FakeStats } from '../src/model/fake-provider/server.ts';
import type { Audit } from './audit.ts';
import type { AnswerRecord } from './client.ts';
import { type FaultRecord, OUTAGE_KINDS } from './faults.ts';
import type { LongestWait, Unanswered } from './load.ts';
import type { ProcessExit } from './processes.ts';

/**
 * `zero`: a lost, twice or mismatch figure. `hands-off`: something stuck, or a process that did
 * not come back by itself. `answers`: a 500, or a 5xx that an outage does not excuse.
 */
export interface Goal {
  name: string;
  value: string;
  ok: boolean;
  kind: 'zero' | 'hands-off' | 'answers';
}
export interface Report {
  title: string;
  lines: string[];
  goals: Goal[];
  ok: boolean;
}

export interface ReportInput {
  title: string;
  sizes: { captures: number; pageSends: number; sentences: number; users: number; loadSeconds: number };
  quiescenceSeconds: number;
  faults: FaultRecord[];
  audit: Audit;
  answers: AnswerRecord[];
  unanswered: Unanswered[];
  longest: LongestWait[];
  exits: ProcessExit[];
  fakeStats: FakeStats;
  seconds: number;
  /** How each process came back after each fault: lines to print, and how many never did. */
  recovery: { lines: string[]; neverBack: number };
}

/** An answer up to this long after a dependency is back still counts as "during the outage". */
export const OUTAGE_GRACE_MS = 5_000;

export function buildReport(input: ReportInput): Report {
  const { audit: a } = input;
  const goals: Goal[] = [];
  const rows: [string, string, string][] = [];
  const row = (label: string, value: string | number, goal?: Omit<Goal, 'name' | 'value'>) => {
    rows.push([label, String(value), goal ? (goal.ok ? '= 0  ok' : '= 0  FAILED') : '']);
    if (goal) goals.push({ name: label, value: String(value), ...goal });
  };
  const zero = (label: string, n: number, kind: Goal['kind'] = 'zero') => row(label, n, { ok: n === 0, kind });

  row('captures acknowledged', a.capturesAcked);
  zero('captures acknowledged and lost', a.capturesLost.length);
  zero('captures answered with two different cards', a.capturesDuplicated);
  zero('cards still pending', a.pending.cards, 'hands-off');
  row('cards failed, by code', formatCounts(a.cardsFailed));
  // A provider outage is waited out (30 minutes); only a verdict fails a card or a sentence.
  zero('cards failed service_unavailable (waiting gave up)', a.cardsFailed.service_unavailable ?? 0, 'hands-off');
  row('async sentences acknowledged', a.sentencesAcked);
  zero('async sentences acknowledged and lost', a.sentencesLost.length);
  zero('sentences still pending', a.pending.sentences, 'hands-off');
  row('sentences failed, by code', formatCounts(a.sentencesFailed));
  zero('sentences failed service_unavailable (waiting gave up)', a.sentencesFailed.service_unavailable ?? 0, 'hands-off');
  row('failures stored with a code outside the catalog', a.failedOutsideCatalog);
  row('page translations answered (request_ids)', `${a.pagesAcked} (${a.pageRequestIdsAcked})`);
  zero('page translations answered and lost', a.pagesLost.length);
  zero('page-translation claims still running', a.pending.pageClaims, 'hands-off');
  row('page translations run twice (2 fresh answers)', a.pagesRanTwice);
  zero('translation batches charged twice', a.pagesChargedTwice);
  zero('ledger keys charged more than once', a.ledgerKeysTwice);
  zero('cards or sentence attempts charged more than once', a.unitsChargedTwice);
  zero('wallets whose ledger sum differs from the balance', a.walletMismatches);
  row('credits written off as shortfall', a.shortfallCredits);
  zero('outbox rows never dispatched', a.pending.outbox, 'hands-off');
  row(
    'requests never answered 2xx (final answer)',
    formatCounts(input.unanswered.map((u) => `${u.kind} ${u.status ?? 'no answer'}${u.code ? ` ${u.code}` : ''}${u.gaveUp ? ' (client gave up)' : ''}`)),
  );
  row('longest wait for one request: ms (attempts)', input.longest.map((l) => `${l.kind} ${l.ms} (${l.attempts})`).join(', '));
  row('model answers not charged (at-least-once)', uncharged(input.fakeStats, a.charges));
  row('quiescent after', a.quiescentAfterMs === null ? `not within ${input.quiescenceSeconds} s` : `${(a.quiescentAfterMs / 1000).toFixed(1)} s`);

  const fiveXx = input.answers.filter((r) => r.status !== null && r.status >= 500).map((r) => ({ r, phase: phaseOf(r, input.faults) }));
  zero('HTTP 500 answers', fiveXx.filter(({ r }) => r.status === 500).length, 'answers');
  zero('5xx outside an outage', fiveXx.filter(({ phase }) => phase === 'outside').length, 'answers');
  zero('503 without Retry-After', fiveXx.filter(({ r }) => r.status === 503 && !r.retryAfter).length, 'answers');
  zero('processes that never came back by themselves', input.recovery.neverBack, 'hands-off');
  zero('unplanned process exits', input.exits.filter((e) => !e.planned).length, 'hands-off');

  const byKind = formatCounts(
    fiveXx.map(({ r, phase }) => `${r.status} ${r.code ?? '-'}${r.status === 503 && !r.retryAfter ? ' (no Retry-After)' : ''} ${phase}`),
  );
  const allKinds = input.faults.map((f) => f.kind);
  const noAnswer = formatCounts(input.answers.filter((r) => r.status === null).map((r) => `${r.api} ${phaseOf(r, input.faults, allKinds)}`));
  const s = input.sizes;
  const width = Math.max(...rows.map((r) => r[0].length));
  const valueWidth = Math.min(40, Math.max(...rows.map((r) => r[1].length)));
  const lines = [
    `== chaos run: ${input.title}, ${input.seconds.toFixed(0)} s ==`,
    `load: ${s.captures} captures, ${s.pageSends} page-translation sends, ${s.sentences} async sentences from ${s.users} users over ${s.loadSeconds} s`,
    'faults:',
    ...input.faults.map((f) => `  ${f.label}, ${((f.endedAt - f.startedAt) / 1000).toFixed(1)} s${f.note ? `: ${f.note}` : ''}`),
    '',
    ...rows.map(([label, value, goal]) => `${label.padEnd(width)}  ${value.padStart(valueWidth)}  ${goal}`.trimEnd()),
    '',
    `5xx answers by status, code and phase (outage = the fault's window + ${OUTAGE_GRACE_MS / 1000} s): ${byKind}`,
    `attempts without an HTTP answer (connection refused/reset, timeout): ${noAnswer}`,
    `process exits: ${formatCounts(input.exits.map((e) => `${e.name} ${e.signal ?? `code ${e.code}`}${e.planned ? '' : ' UNPLANNED'}`))}`,
    '',
    ...input.recovery.lines,
  ];
  return { title: input.title, lines, goals, ok: goals.every((g) => g.ok) };
}

/** The latest fault of the given kinds whose window (plus grace) the attempt overlaps, as a phase name. */
function phaseOf(r: Pick<AnswerRecord, 'sentAt' | 'at'>, faults: FaultRecord[], kinds: readonly FaultRecord['kind'][] = OUTAGE_KINDS): string {
  const fault = faults.filter((f) => kinds.includes(f.kind) && r.at >= f.startedAt && r.sentAt <= f.endedAt + OUTAGE_GRACE_MS).at(-1);
  return fault ? `during "${fault.label}"` : 'outside';
}

function uncharged(stats: FakeStats, charges: Record<string, number>): string {
  const pairs: [string, string][] = [
    ['capture_preparation', 'capture_preparation'],
    ['translate_sentence', 'sentence_translation'],
  ];
  return pairs.map(([task, kind]) => `${kind} ${(stats.answered[task] ?? 0) - (charges[kind] ?? 0)} of ${stats.answered[task] ?? 0}`).join(', ');
}

function formatCounts(values: string[] | Record<string, number>): string {
  const counts: Record<string, number> = Array.isArray(values) ? {} : { ...values };
  if (Array.isArray(values)) for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  const entries = Object.entries(counts).sort((x, y) => y[1] - x[1]);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ×${n}`).join('; ');
}

export function formatTable(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  return [line(head), ...body.map(line)].join('\n');
}
