import { Migration } from '@mikro-orm/migrations';

/**
 * Your own model (issue 34):
 * - `model_output_modes`: the structured output an endpoint and model take (src/model/output-modes.ts),
 *   learnt by whichever process first met a refusal and read by every other (src/services/output-mode-memory.ts).
 * - `cards.prepared_by_model`: the model whose answer the card's preparation holds (NULL before this column).
 */
export class ModelOutputModes extends Migration {
  override name = '0027-model-output-modes';

  up() {
    this.addSql(`CREATE TABLE model_output_modes (
      endpoint text NOT NULL,
      model text NOT NULL,
      mode text NOT NULL CHECK (mode IN ('json_schema', 'json_object', 'text')),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (endpoint, model)
    )`);
    this.addSql(`ALTER TABLE cards ADD COLUMN prepared_by_model text`);
  }
}
