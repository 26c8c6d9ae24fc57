/**
 * After the load: wait until nothing is pending (or the cap), then read the database and set
 * it beside what the client was told. Every figure here is a count the report prints.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Orm } from '../src/db/orm.ts';
import { problemCatalog } from '../src/domain/problems.ts';
import type { Acks } from './load.ts';

export interface Pending {
  cards: number;
  sentences: number;
  outbox: number;
  pageClaims: number;
}

export interface Audit {
  quiescentAfterMs: number | null;
  pending: Pending;
  capturesAcked: number;
  capturesLost: string[];
  /** Texts acknowledged with two different cardIds (a duplicate card). */
  capturesDuplicated: number;
  cardsFailed: Record<string, number>;
  sentencesAcked: number;
  sentencesLost: string[];
  sentencesFailed: Record<string, number>;
  /** Failed cards and sentences whose stored code is not in the problem catalog. */
  failedOutsideCatalog: number;
  pagesAcked: number;
  pageRequestIdsAcked: number;
  pagesLost: string[];
  /** request_ids answered more than once without Idempotent-Replayed (the batch ran twice). */
  pagesRanTwice: number;
  /** request_ids with more than one page_translation ledger entry. */
  pagesChargedTwice: number;
  ledgerKeysTwice: number;
  /** Cards or sentence attempts with more than one charge. */
  unitsChargedTwice: number;
  walletMismatches: number;
  shortfallCredits: number;
  charges: Record<string, number>;
}

const SAY_WHAT_IS_PENDING_EVERY_MS = 30_000;

export async function waitForQuiescence(
  orm: Orm,
  capMs: number,
  log: (line: string) => void = () => {},
): Promise<{ pending: Pending; afterMs: number | null }> {
  const started = Date.now();
  let said = started;
  let pending = await pendingWork(orm).catch(() => null);
  while (!pending || Object.values(pending).some((n) => n > 0)) {
    if (Date.now() - started > capMs) return { pending: pending ?? { cards: -1, sentences: -1, outbox: -1, pageClaims: -1 }, afterMs: null };
    if (Date.now() - said > SAY_WHAT_IS_PENDING_EVERY_MS) {
      said = Date.now();
      log(`still pending after ${((said - started) / 1000).toFixed(0)} s: ${JSON.stringify(pending)}; oldest: ${await oldestPending(orm).catch(() => '?')}`);
    }
    await sleep(1_000);
    pending = await pendingWork(orm).catch(() => null);
  }
  return { pending, afterMs: Date.now() - started };
}

/** The ids behind a slow quiescence, to look up in the Temporal UI (`card-enrichment/<id>`, `sentence-translation/<id>`). */
async function oldestPending(orm: Orm): Promise<string> {
  const rows = await orm.em.fork().execute<{ kind: string; id: string; since: Date }[]>(`
    (SELECT 'card' AS kind, id::text, created_at AS since FROM cards WHERE enrichment_status = 'pending' ORDER BY created_at LIMIT 3)
    UNION ALL (SELECT 'sentence', id::text, created_at FROM sentences WHERE status = 'pending' ORDER BY created_at LIMIT 3)
    UNION ALL (SELECT 'outbox', workflow_id, created_at FROM workflow_outbox WHERE dispatched_at IS NULL ORDER BY created_at LIMIT 3)`);
  return rows.map((r) => `${r.kind} ${r.id} since ${new Date(r.since).toISOString()}`).join('; ') || 'none';
}

async function pendingWork(orm: Orm): Promise<Pending> {
  const [row] = await orm.em.fork().execute<{ cards: string; sentences: string; outbox: string; page_claims: string }[]>(`
    SELECT (SELECT count(*) FROM cards WHERE enrichment_status = 'pending') AS cards,
           (SELECT count(*) FROM sentences WHERE status = 'pending') AS sentences,
           (SELECT count(*) FROM workflow_outbox WHERE dispatched_at IS NULL) AS outbox,
           (SELECT count(*) FROM page_translation_requests WHERE status = 'running') AS page_claims`);
  return { cards: Number(row!.cards), sentences: Number(row!.sentences), outbox: Number(row!.outbox), pageClaims: Number(row!.page_claims) };
}

export async function audit(orm: Orm, acks: Acks, quiescence: { pending: Pending; afterMs: number | null }): Promise<Audit> {
  const em = orm.em.fork();
  const cards = await em.execute<{ id: string; user_id: string; text: string; status: string; code: string | null }[]>(
    `SELECT id, user_id, text, enrichment_status AS status, enrichment_error ->> 'code' AS code FROM cards`,
  );
  const sentences = await em.execute<{ id: string; user_id: string; status: string; code: string | null }[]>(
    `SELECT id, user_id, status, error_code AS code FROM sentences`,
  );
  const pages = await em.execute<{ user_id: string; request_id: string }[]>(`SELECT user_id, request_id FROM page_translation_requests WHERE status = 'done'`);
  const cardById = new Map(cards.map((c) => [c.id, c]));
  const sentenceIds = new Set(sentences.map((s) => s.id));
  const pageKeys = new Set(pages.map((p) => `${p.user_id}/${p.request_id}`));

  const capturesLost = [...acks.captures]
    .filter(([text, ack]) =>
      [...ack.cardIds].some((id) => {
        const card = cardById.get(id);
        return !card || card.user_id !== ack.userId || card.text !== text;
      }),
    )
    .map(([text]) => text);
  const sentencesLost = [...acks.sentences].filter(([, ack]) => !sentenceIds.has(ack.sentenceId)).map(([text]) => text);
  const pageAcks = new Map(acks.pages.map((p) => [`${p.userId}/${p.requestId}`, p]));
  const pagesLost = [...pageAcks.keys()].filter((key) => !pageKeys.has(key));
  const firstRuns = new Map<string, number>();
  for (const p of acks.pages.filter((a) => !a.replayed)) firstRuns.set(p.requestId, (firstRuns.get(p.requestId) ?? 0) + 1);

  const [ledger] = await em.execute<{ keys_twice: string; units_twice: string; pages_twice: string; wallets: string; shortfall: string }[]>(`
    SELECT
      (SELECT count(*) FROM (SELECT 1 FROM ledger_entries GROUP BY user_id, idempotency_key HAVING count(*) > 1) k) AS keys_twice,
      (SELECT count(*) FROM (
         SELECT 1 FROM ledger_entries l JOIN cards c ON c.id::text = l.ref
         WHERE l.kind = 'capture_preparation' GROUP BY l.ref, c.enrichment_attempt HAVING count(*) > c.enrichment_attempt
         UNION ALL
         SELECT 1 FROM ledger_entries l JOIN sentences s ON s.id::text = l.ref
         WHERE l.kind = 'sentence_translation' GROUP BY l.ref, s.attempt HAVING count(*) > s.attempt) u) AS units_twice,
      (SELECT count(*) FROM (SELECT 1 FROM ledger_entries WHERE kind = 'page_translation' GROUP BY user_id, ref HAVING count(*) > 1) p) AS pages_twice,
      (SELECT count(*) FROM wallets w
         LEFT JOIN (SELECT user_id, sum(amount) AS total FROM ledger_entries GROUP BY user_id) s ON s.user_id = w.user_id
         LEFT JOIN LATERAL (SELECT balance_after FROM ledger_entries e WHERE e.user_id = w.user_id ORDER BY id DESC LIMIT 1) last ON true
         WHERE w.balance <> coalesce(s.total, 0) OR w.balance <> coalesce(last.balance_after, 0)) AS wallets,
      (SELECT coalesce(sum(shortfall), 0) FROM ledger_entries) AS shortfall`);
  const charges = await em.execute<{ kind: string; n: string }[]>(`SELECT kind, count(*) AS n FROM ledger_entries WHERE kind <> 'grant' GROUP BY kind`);

  return {
    quiescentAfterMs: quiescence.afterMs,
    pending: quiescence.pending,
    capturesAcked: acks.captures.size,
    capturesLost,
    capturesDuplicated: [...acks.captures.values()].filter((a) => a.cardIds.size > 1).length,
    cardsFailed: countBy(cards.filter((c) => c.status === 'failed').map((c) => c.code ?? '(none)')),
    sentencesAcked: acks.sentences.size,
    sentencesLost,
    sentencesFailed: countBy(sentences.filter((s) => s.status === 'failed').map((s) => s.code ?? '(none)')),
    failedOutsideCatalog: [...cards, ...sentences].filter((u) => u.status === 'failed' && !(u.code !== null && u.code in problemCatalog)).length,
    pagesAcked: acks.pages.length,
    pageRequestIdsAcked: pageAcks.size,
    pagesLost,
    pagesRanTwice: [...firstRuns.values()].filter((n) => n > 1).length,
    pagesChargedTwice: Number(ledger!.pages_twice),
    ledgerKeysTwice: Number(ledger!.keys_twice),
    unitsChargedTwice: Number(ledger!.units_twice),
    walletMismatches: Number(ledger!.wallets),
    shortfallCredits: Number(ledger!.shortfall),
    charges: Object.fromEntries(charges.map((c) => [c.kind, Number(c.n)])),
  };
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** For each instant, when the workers next finished a piece of work (a card prepared or a sentence translated). */
export async function firstCompletionsAfter(orm: Orm, instants: number[]): Promise<(number | null)[]> {
  const em = orm.em.fork();
  return Promise.all(
    instants.map(async (at) => {
      const [row] = await em.execute<{ first: Date | null }[]>(
        `SELECT least((SELECT min(enriched_at) FROM cards WHERE enriched_at > ?),
                    (SELECT min(updated_at) FROM sentences WHERE status = 'translated' AND updated_at > ?)) AS first`,
        [new Date(at), new Date(at)],
      );
      return row?.first ? new Date(row.first).getTime() : null;
    }),
  );
}
