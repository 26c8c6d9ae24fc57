import type { Orm } from '../db/orm.ts';
import { firstRow, run, sql } from '../db/sql.ts';
import type { OutputMode, OutputModeMemory } from '../model/output-modes.ts';

/** A process reads what the others learnt at most this often. */
const READ_EVERY_MS = 60_000;
/** After this the better modes are tried again: the server may have been upgraded. */
const REMEMBERED_FOR = sql`interval '1 day'`;

/**
 * The structured output an endpoint and model take, in PostgreSQL (`model_output_modes`): the
 * first process that meets a refusal writes what worked instead, and every other reads it, so
 * each learns it once rather than through refusals of its own. Should the database be
 * unreachable, the call goes in the best mode (a refusal costs one quick round trip).
 */
export function outputModeMemory(
  orm: Orm,
  endpoint: string,
  /** Read at each call: the endpoint may be asked which model it serves after the process started (src/model/endpoint-model.ts). */
  model: () => string,
  logger?: { warn(obj: object, msg?: string): void },
): OutputModeMemory {
  const key = endpoint.replace(/\/+$/, '');
  let cached: { mode: OutputMode | null; at: number } | undefined;
  return {
    async recall() {
      if (cached && Date.now() - cached.at < READ_EVERY_MS) return cached.mode;
      try {
        const row = await firstRow<{ mode: OutputMode }>(
          orm.em.fork(),
          sql`SELECT mode FROM model_output_modes WHERE endpoint = ${key} AND model = ${model()} AND updated_at > clock_timestamp() - ${REMEMBERED_FOR}`,
        );
        cached = { mode: row?.mode ?? null, at: Date.now() };
        return cached.mode;
      } catch (error) {
        logger?.warn({ err: (error as Error)?.name }, 'model output mode unreadable: the call asks for the best');
        return null;
      }
    },
    async remember(mode) {
      cached = { mode, at: Date.now() };
      try {
        await run(
          orm.em.fork(),
          sql`INSERT INTO model_output_modes (endpoint, model, mode) VALUES (${key}, ${model()}, ${mode})
             ON CONFLICT (endpoint, model) DO UPDATE SET mode = excluded.mode, updated_at = clock_timestamp()`,
        );
      } catch (error) {
        logger?.warn({ err: (error as Error)?.name }, 'model output mode not stored: this process keeps it');
      }
    },
  };
}
