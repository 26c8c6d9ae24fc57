import { Migration } from '@mikro-orm/migrations';

/**
 * The Progress screen (src/features/progress):
 * - `review_quarters`: each learner's reviews counted per UTC quarter-hour, kept by a trigger on
 *   `review_logs`. A year of reviews is ~1,500 rows instead of ~70,000, so the charts answer in
 *   milliseconds. Every UTC offset in use is a multiple of 15 minutes, so a learner's day (from
 *   4 am, local time) always starts on a quarter. Counted time is capped at 60 s a review, as
 *   Anki's "maximum answer seconds": a tab left open is not hours of study. Young and mature are
 *   Anki's true-retention classes: reviews of a card scheduled 1–20 days, or 21 and more, before
 *   (same-day steps, scheduled 0 days, are in neither).
 * - two indexes for the 30-day forecast (cards not ready yet) and the library by state;
 * - what the optimiser panel shows: the reviews a fit learned from and was judged on, and the
 *   default weights' log loss and RMSE on the same held-out reviews.
 */
export class Progress extends Migration {
  override name = '0024-progress';

  up() {
    this.addSql(`
      CREATE TABLE review_quarters (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        quarter timestamptz NOT NULL,
        reviews integer NOT NULL DEFAULT 0,
        again integer NOT NULL DEFAULT 0,
        hard integer NOT NULL DEFAULT 0,
        good integer NOT NULL DEFAULT 0,
        easy integer NOT NULL DEFAULT 0,
        duration_ms bigint NOT NULL DEFAULT 0,
        timed integer NOT NULL DEFAULT 0,
        young_passed integer NOT NULL DEFAULT 0,
        young_failed integer NOT NULL DEFAULT 0,
        mature_passed integer NOT NULL DEFAULT 0,
        mature_failed integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, quarter)
      )`);
    this.addSql(`
      CREATE FUNCTION review_quarters_apply(r review_logs, sign integer) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        q timestamptz := date_bin('15 minutes', r.reviewed_at, timestamptz '2000-01-01 00:00:00+00');
        young boolean := r.scheduled_days BETWEEN 1 AND 20;
        mature boolean := r.scheduled_days >= 21;
        passed boolean := r.rating <> 'again';
      BEGIN
        IF sign > 0 THEN
          INSERT INTO review_quarters (user_id, quarter) VALUES (r.user_id, q) ON CONFLICT DO NOTHING;
        END IF;
        UPDATE review_quarters SET
          reviews = reviews + sign,
          again = again + sign * (r.rating = 'again')::int,
          hard = hard + sign * (r.rating = 'hard')::int,
          good = good + sign * (r.rating = 'good')::int,
          easy = easy + sign * (r.rating = 'easy')::int,
          duration_ms = duration_ms + sign * least(coalesce(r.duration_ms, 0), 60000),
          timed = timed + sign * (r.duration_ms IS NOT NULL)::int,
          young_passed = young_passed + sign * (young AND passed)::int,
          young_failed = young_failed + sign * (young AND NOT passed)::int,
          mature_passed = mature_passed + sign * (mature AND passed)::int,
          mature_failed = mature_failed + sign * (mature AND NOT passed)::int
        WHERE user_id = r.user_id AND quarter = q;
      END $$`);
    this.addSql(`
      CREATE FUNCTION review_quarters_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM review_quarters_apply(OLD, -1); END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM review_quarters_apply(NEW, 1); END IF;
        RETURN NULL;
      END $$`);
    this.addSql(`CREATE TRIGGER review_quarters_track AFTER INSERT OR DELETE OR UPDATE ON review_logs FOR EACH ROW EXECUTE FUNCTION review_quarters_track()`);
    this.addSql(`
      INSERT INTO review_quarters
      SELECT user_id, date_bin('15 minutes', reviewed_at, timestamptz '2000-01-01 00:00:00+00'), count(*),
             count(*) FILTER (WHERE rating = 'again'), count(*) FILTER (WHERE rating = 'hard'),
             count(*) FILTER (WHERE rating = 'good'), count(*) FILTER (WHERE rating = 'easy'),
             coalesce(sum(least(coalesce(duration_ms, 0), 60000)), 0), count(duration_ms),
             count(*) FILTER (WHERE scheduled_days BETWEEN 1 AND 20 AND rating <> 'again'),
             count(*) FILTER (WHERE scheduled_days BETWEEN 1 AND 20 AND rating = 'again'),
             count(*) FILTER (WHERE scheduled_days >= 21 AND rating <> 'again'),
             count(*) FILTER (WHERE scheduled_days >= 21 AND rating = 'again')
      FROM review_logs GROUP BY 1, 2`);
    this.addSql(`CREATE INDEX cards_user_unready_idx ON cards (user_id) WHERE enrichment_status <> 'ready'`);
    this.addSql(`CREATE INDEX card_schedules_user_state_idx ON card_schedules (user_id, state)`);
    this.addSql(`
      ALTER TABLE fsrs_parameters
        ADD COLUMN train_size integer,
        ADD COLUMN held_out_size integer,
        ADD COLUMN default_log_loss double precision,
        ADD COLUMN default_rmse double precision`);
  }
}
