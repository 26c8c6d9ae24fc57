import { Migration } from '@mikro-orm/migrations';

/**
 * Replay that teaches:
 * - the time the learner took over an item, kept beside the rest of the evidence in the review log;
 * - the card's whole schedule before each review, so undo restores it exactly (the ts-fsrs log
 *   fields alone lose the previous due time, reps, lapses and last review);
 * - each learner's desired retention;
 * - the FSRS weights the optimiser fitted per learner: one row per version, with the log size and
 *   the held-out figures it was judged on, applied only when it beat the weights in use.
 */
export class ReplayTeaching extends Migration {
  override name = '0014-replay-teaching';

  up() {
    this.addSql(`ALTER TABLE review_logs ADD COLUMN duration_ms integer CHECK (duration_ms >= 0)`);
    this.addSql(`ALTER TABLE review_logs ADD COLUMN previous_schedule jsonb`);
    this.addSql(`
      CREATE TABLE replay_settings (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        desired_retention double precision NOT NULL CHECK (desired_retention BETWEEN 0.8 AND 0.97),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`
      CREATE TABLE fsrs_parameters (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        version integer NOT NULL,
        weights double precision[] NOT NULL,
        log_size integer NOT NULL,
        log_loss double precision NOT NULL,
        rmse double precision NOT NULL,
        baseline_log_loss double precision NOT NULL,
        baseline_rmse double precision NOT NULL,
        applied boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, version)
      )`);
  }
}
