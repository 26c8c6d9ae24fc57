/**
 * A reader thread (reading.ts): reads one file with its reader and posts back the rows, the
 * ImportFileError that refused it, or a bug. It imports only the readers: pure code, node:sqlite and node:fs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ImportFileError } from '../../../domain/imports.ts';
import { readImportBytes, type ReadOptions } from './readers.ts';

const { bytes, options } = workerData as { bytes: Uint8Array; options: ReadOptions };
try {
  parentPort!.postMessage({ parsed: await readImportBytes(bytes, options) });
} catch (error) {
  if (error instanceof ImportFileError) parentPort!.postMessage({ refused: { code: error.code, message: error.message, details: error.details } });
  else parentPort!.postMessage({ bug: { message: (error as Error).message, stack: (error as Error).stack } });
}
