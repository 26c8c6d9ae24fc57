import { Migration } from '@mikro-orm/migrations';

/**
 * A unit of work's credit hold taken in one round trip (reserveCredits, src/features/credits/holds.ts):
 * it had taken five, a transaction of its own (BEGIN, the wallet's lock, the holds, the hold's upsert,
 * COMMIT) before every paid call, four of a card's fourteen statements. It cannot be one SQL statement:
 * in READ COMMITTED a statement reads with the snapshot it started with, so a statement that waited
 * for the wallet's lock would then miss a hold committed meanwhile, and two units could hold the same
 * credits. A PL/pgSQL function's statements each read with a snapshot of their own, taken after the
 * lock. The rule for what is held (at most what is available, refused when nothing is: `empty` when the
 * balance is spent, `held` when work in progress holds it) is here; reserveCredits falls back to its
 * transaction only to roll a wallet into a new period ('period_ended').
 *
 * Returns one row: `outcome` ('reserved'; refused: 'empty', 'held'; or 'no_wallet', 'period_ended'), the
 * credits held, the balance, what other units hold, the unit's own live hold as it was before (null
 * if none), and the tasks of lapsed holds whose call was in flight (their answers were lost).
 */
export class CreditHoldReserve extends Migration {
  override name = '0032-credit-hold-reserve';

  up() {
    this.addSql(`
      CREATE FUNCTION credit_hold_reserve(p_user_id uuid, p_hold_key text, p_task text, p_max_credits integer, p_call_starts boolean,
        p_call_attempt_at bigint, p_lifetime_ms double precision, p_now timestamptz)
      RETURNS TABLE (outcome text, credits integer, balance integer, held bigint, own json, lost json)
      LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        wallet_balance integer;
        wallet_period_end timestamptz;
        own_hold json;
        held_by_others bigint;
        available bigint;
        granted integer;
        lost_calls json;
      BEGIN
        SELECT w.balance, w.period_end INTO wallet_balance, wallet_period_end FROM wallets w WHERE w.user_id = p_user_id FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'no_wallet'::text, NULL::integer, NULL::integer, NULL::bigint, NULL::json, NULL::json;
          RETURN;
        END IF;
        IF p_now >= wallet_period_end THEN
          RETURN QUERY SELECT 'period_ended'::text, NULL::integer, wallet_balance, NULL::bigint, NULL::json, NULL::json;
          RETURN;
        END IF;
        SELECT row_to_json(h) INTO own_hold FROM (
          SELECT c.task, c.credits, c.call_in_flight, c.call_attempt_at FROM credit_holds c
          WHERE c.user_id = p_user_id AND c.hold_key = p_hold_key AND c.expires_at > now()) h;
        SELECT coalesce(sum(c.credits), 0) INTO held_by_others FROM credit_holds c
          WHERE c.user_id = p_user_id AND c.expires_at > now() AND c.hold_key <> p_hold_key;
        IF own_hold IS NOT NULL THEN
          granted := (own_hold ->> 'credits')::integer;
        ELSE
          available := wallet_balance - least(held_by_others, wallet_balance);
          IF available <= 0 THEN
            RETURN QUERY SELECT CASE WHEN wallet_balance <= 0 THEN 'empty' ELSE 'held' END, NULL::integer, wallet_balance,
              held_by_others, NULL::json, NULL::json;
            RETURN;
          END IF;
          granted := least(available, p_max_credits);
        END IF;
        WITH lapsed AS (
          DELETE FROM credit_holds c WHERE c.user_id = p_user_id AND c.expires_at <= now() RETURNING c.task, c.call_in_flight
        )
        SELECT coalesce(json_agg(lapsed.task) FILTER (WHERE lapsed.call_in_flight), '[]'::json) INTO lost_calls FROM lapsed;
        INSERT INTO credit_holds AS c (user_id, hold_key, task, credits, call_in_flight, call_attempt_at, expires_at)
          VALUES (p_user_id, p_hold_key, p_task, granted, p_call_starts, p_call_attempt_at, now() + p_lifetime_ms * interval '1 millisecond')
          ON CONFLICT (user_id, hold_key) DO UPDATE SET expires_at = EXCLUDED.expires_at,
            call_in_flight = c.call_in_flight OR EXCLUDED.call_in_flight,
            call_attempt_at = GREATEST(c.call_attempt_at, EXCLUDED.call_attempt_at);
        RETURN QUERY SELECT 'reserved'::text, granted, wallet_balance, held_by_others, own_hold, lost_calls;
      END
      $fn$`);
  }
}
