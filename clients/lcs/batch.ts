/**
 * Runs one request per input line with bounded concurrency (capture, sentence import). A line
 * that fails is reported with its reason and the rest go on; an answer that would fail every
 * line alike (bad token, no credits) stops the batch, and the lines not sent say so. A line with
 * the same key as an earlier one (the same expression twice) is sent only once the earlier one is
 * answered, so the first in the input is the one the service saves, as the learner reads it.
 */
import { EXIT, type ExitCode } from './exit.ts';
import { ServiceError } from './service.ts';
import type { progress } from './terminal.ts';

export type LineResult<T> = { line: string; ok: true; value: T } | { line: string; ok: false; code: string; detail: string; exitCode: ExitCode };
export type Progress = ReturnType<typeof progress>;

const stopsTheBatch = (error: ServiceError) => error.exitCode === EXIT.auth || error.exitCode === EXIT.noCredits;

export async function runBatch<T>(
  lines: readonly string[],
  concurrency: number,
  bar: Progress,
  send: (line: string) => Promise<T>,
  keyOf: (line: string) => string = (line) => line,
): Promise<{ results: LineResult<T>[]; exitCode: ExitCode }> {
  const results = new Array<LineResult<T>>(lines.length);
  const lastSentByKey = new Map<string, Promise<unknown>>();
  let next = 0;
  // Set by whichever worker meets the answer first (an object: TypeScript would narrow a let to null).
  const stop: { by: ServiceError | null } = { by: null };

  async function worker() {
    while (next < lines.length && !stop.by) {
      const index = next++;
      const line = lines[index]!;
      const key = keyOf(line);
      const earlier = lastSentByKey.get(key);
      const sending = (async () => {
        await earlier?.catch(() => {});
        return send(line);
      })();
      lastSentByKey.set(key, sending);
      try {
        results[index] = { line, ok: true, value: await sending };
        bar.note('');
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        if (stopsTheBatch(error)) stop.by ??= error;
        results[index] = { line, ok: false, code: error.code, detail: error.message, exitCode: error.exitCode };
      }
      bar.tick();
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, lines.length) }, worker));
  bar.end();
  for (let i = 0; i < lines.length; i++) {
    results[i] ??= { line: lines[i]!, ok: false, code: 'not_sent', detail: `Not sent: ${stop.by!.message}`, exitCode: stop.by!.exitCode };
  }
  return { results, exitCode: stop.by?.exitCode ?? batchExitCode(results) };
}

/** 0 when every line succeeded; the failures' own code when they share one (all 503: 5); else 1. */
function batchExitCode(results: LineResult<unknown>[]): ExitCode {
  const codes = new Set(results.flatMap((r) => (r.ok ? [] : [r.exitCode])));
  if (codes.size === 0) return EXIT.ok;
  return codes.size === 1 ? [...codes][0]! : EXIT.failure;
}
