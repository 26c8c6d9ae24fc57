import yauzl from 'yauzl';
import { ImportFileError } from '../../../domain/imports.ts';

/** What a zip may hold before any of it is inflated: the entries its central directory lists, and the size of the one entry read. */
export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
}

export interface ZipEntryRead {
  /** The entries' names, as the central directory lists them (read only up to `maxEntries`). */
  names: string[];
  /** The first wanted entry found (by the order of `wanted`), inflated, or null. */
  found: { name: string; bytes: Buffer } | null;
}

/**
 * Reads one entry of a zip held in memory, the first of `wanted` that the archive holds, and
 * nothing else. The central directory is read first: more entries than `maxEntries`, or the
 * wanted entry declaring more than `maxEntryBytes`, refuse the file before anything is inflated;
 * an entry that inflates past what it declared (a zip bomb that lies) is refused as it streams
 * (yauzl's `validateEntrySizes`). An encrypted or damaged archive is refused.
 */
export async function readZipEntry(bytes: Uint8Array, wanted: readonly string[], limits: ZipLimits): Promise<ZipEntryRead> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true }, (error, file) =>
      error ? reject(damagedZip(error)) : resolve(file),
    ),
  );
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ImportFileError(
        'too_many_entries',
        `This archive lists ${zip.entryCount.toLocaleString('en')} files; a package may hold ${limits.maxEntries.toLocaleString('en')}.`,
        { entries: zip.entryCount, limit: limits.maxEntries },
      );
    }
    const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const seen: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        seen.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve(seen));
      zip.on('error', (error: Error) => reject(damagedZip(error)));
      zip.readEntry();
    });
    const names = entries.map((e) => e.fileName);
    const entry = wanted.map((name) => entries.find((e) => e.fileName === name)).find((e) => e !== undefined);
    if (!entry) return { names, found: null };
    if (entry.isEncrypted()) throw new ImportFileError('damaged_archive', 'This archive is encrypted; export the package again without a password.');
    if (entry.uncompressedSize > limits.maxEntryBytes) throw tooLarge(entry.fileName, entry.uncompressedSize, limits.maxEntryBytes);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (error, s) => (error ? reject(damagedZip(error)) : resolve(s))),
    );
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        // Never past the limit, whatever the entry declared (validateEntrySizes stops it at what it declared).
        if (total > limits.maxEntryBytes) throw tooLarge(entry.fileName, total, limits.maxEntryBytes);
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof ImportFileError ? error : damagedZip(error as Error);
    }
    return { names, found: { name: entry.fileName, bytes: Buffer.concat(chunks, total) } };
  } finally {
    zip.close();
  }
}

const tooLarge = (name: string, bytes: number, limit: number) =>
  new ImportFileError('archive_too_large', `The archive's ${name} unpacks to more than ${(limit / 1_000_000).toFixed(0)} MB; a package may hold that much.`, {
    entry: name,
    bytes,
    limit,
  });

function damagedZip(error: Error): ImportFileError {
  if (error instanceof ImportFileError) return error;
  // yauzl says "invalid ... size" when an entry inflates to more (or less) than it declared.
  if (/too many bytes|size/i.test(error.message)) {
    return new ImportFileError('archive_too_large', `This archive's contents do not match the sizes it declares (${error.message}); it is refused.`);
  }
  return new ImportFileError('damaged_archive', `This archive is damaged and cannot be read (${error.message}).`);
}
