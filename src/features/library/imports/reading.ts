import { Worker } from 'node:worker_threads';
import { ImportFileError, type ImportFileProblemCode, type ParsedImport } from '../../../domain/imports.ts';
import { AppError } from '../../../domain/problems.ts';
import type { FeatureContext } from '../../context.ts';
import type { ReadOptions } from './readers.ts';

/** How files are read: at most `maxConcurrent` at once in this process, each in a thread of its own with `memoryMb` of heap, ended after `deadlineMs`. */
export interface ReadLimits {
  maxConcurrent: number;
  deadlineMs: number;
  memoryMb: number;
}

/** Reads in flight in this process, and the learners they are for (one each). */
let inFlight = 0;
const readers = new Set<string>();

type Answer =
  | { parsed: ParsedImport }
  | { refused: { code: ImportFileProblemCode; message: string; details: Record<string, unknown> } }
  | { bug: { message: string; stack?: string } };

/**
 * Reads an uploaded file into an import's rows in a worker thread (read-worker.ts), never on the
 * API's event loop: the thread has a heap of its own bounded by the memory limit, and is ended at
 * the deadline, so no file can stall the API or grow its memory. Past either limit the read ends
 * with 422 `import_too_costly` naming the limit. One read per learner at a time in this process
 * (a second is 429 `limit: "import_reads"`; across processes, parseImportFile's lease), and at most `maxConcurrent` in all (past it 503 with
 * Retry-After); a slot is given back only when its thread has exited, so the bound is the threads there are.
 */
export async function readImportFile(ctx: FeatureContext, userId: string, bytes: Uint8Array, options: ReadOptions): Promise<ParsedImport> {
  const limits = ctx.config.imports.reading;
  if (readers.has(userId)) throw readingAlready();
  if (inFlight >= limits.maxConcurrent) {
    throw new AppError(
      'service_unavailable',
      'This server is reading as many import files as it may at once; try again in a few seconds.',
      {},
      { retryAfterSeconds: 5 },
    );
  }
  inFlight++;
  readers.add(userId);
  // The thread gets a copy it owns (transferred, not cloned again); the request's buffer may be a slice of a shared pool.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./read-worker.ts', import.meta.url), {
      workerData: { bytes: copy, options: { ...options } },
      transferList: [copy.buffer],
      // The service's own V8 flags are the API's; a reader's heap is bounded here.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(32, Math.max(4, limits.memoryMb >> 3)), stackSizeMb: 4 },
      stdout: false,
      stderr: false,
    });
  } catch (error) {
    inFlight--;
    readers.delete(userId);
    throw error;
  }
  // The process's slot is given back when the thread is gone; the learner's when their answer is.
  worker.once('exit', () => inFlight--);
  let timedOut = false;
  const answer = await new Promise<Answer | AppError | Error>((resolve) => {
    const deadline = setTimeout(() => {
      timedOut = true;
      resolve(tooCostly('time', limits));
    }, limits.deadlineMs);
    const settle = (value: Answer | AppError | Error) => {
      clearTimeout(deadline);
      resolve(value);
    };
    worker.once('message', (message: Answer) => settle(message));
    worker.once('error', (error: Error & { code?: string }) => settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooCostly('memory', limits) : error));
    worker.once('exit', (code) => settle(new Error(`the import reader thread exited (${code}) without an answer`)));
  }).finally(() => readers.delete(userId));
  // A thread past its deadline may be inside a native call (SQLite): it is ended without waiting for it.
  if (timedOut) void worker.terminate();
  else await worker.terminate();
  if (answer instanceof Error) throw answer;
  if ('parsed' in answer) return answer.parsed;
  if ('refused' in answer) throw new ImportFileError(answer.refused.code, answer.refused.message, answer.refused.details);
  throw Object.assign(new Error(`import reader failed: ${answer.bug.message}`), { stack: answer.bug.stack });
}

/** 429 `import_reads`: a file of this learner's is being read, by this process or (its lease, service.ts) another. */
export const readingAlready = () =>
  new AppError('rate_limited', 'A file of yours is being read; send the next one when it is done.', { limit: 'import_reads' }, { retryAfterSeconds: 2 });

function tooCostly(limit: 'time' | 'memory', limits: ReadLimits): AppError {
  if (limit === 'time') {
    const seconds = limits.deadlineMs / 1000;
    return new AppError(
      'import_too_costly',
      `Reading this file took longer than the ${seconds} s a file may take; nothing was imported. Split it, or export fewer notes or words at a time.`,
      { limit: 'time', limitSeconds: seconds },
    );
  }
  return new AppError(
    'import_too_costly',
    `Reading this file needed more than the ${limits.memoryMb} MB a file may use; nothing was imported. Split it, or export fewer notes or words at a time.`,
    { limit: 'memory', limitMb: limits.memoryMb },
  );
}
