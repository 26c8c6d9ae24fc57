/**
 * The memory a process tree holds, each resident page counted once. Summing RSS counts a page
 * twice when two processes map it: the Node binary that npm's process and the service's both run,
 * PostgreSQL's shared buffers that every backend maps. Here a page of a file (or of shared memory)
 * is keyed by its file and offset, which is the one page the kernel keeps for all its mappers, and
 * a private page (heap, stacks, a file page written over) is its process's own.
 *
 * Linux only. Reads /proc/PID/smaps and /proc/PID/pagemap, which a process may read of its own
 * user's processes; the page frame numbers it would need privileges for are not used.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

const PAGE = 4096;
const PRESENT = 1n << 63n;
/** Set for a page of a file or of shared memory; clear for a private (anonymous or copied) page. */
const FILE_OR_SHARED = 1n << 61n;

interface Mapping {
  start: number;
  end: number;
  fileOffset: number;
  /** `dev:inode`, or null for anonymous memory. */
  file: string | null;
  rssKb: number;
}

function mappings(pid: number): Mapping[] {
  const result: Mapping[] = [];
  let current: Mapping | null = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) (\S+) (\d+)/.exec(line);
    if (header) {
      current = {
        start: Number.parseInt(header[1]!, 16),
        end: Number.parseInt(header[2]!, 16),
        fileOffset: Number.parseInt(header[3]!, 16),
        file: header[5] === '0' ? null : `${header[4]}:${header[5]}`,
        rssKb: 0,
      };
      result.push(current);
    } else if (current && line.startsWith('Rss:')) {
      current.rssKb = Number.parseInt(line.slice(4), 10);
    }
  }
  return result;
}

export interface ResidentMemory {
  /** Every resident page of the tree, each once. */
  uniqueMb: number;
  /** Per process, its private pages' MB (heap, stacks, file pages it wrote over). */
  privateMbByPid: Map<number, number>;
}

export function residentMemory(pids: number[]): ResidentMemory {
  const sharedPages = new Set<string>();
  const privateMbByPid = new Map<number, number>();
  let privatePages = 0;
  for (const pid of pids) {
    let own = 0;
    let pagemap: number;
    try {
      pagemap = openSync(`/proc/${pid}/pagemap`, 'r');
    } catch {
      continue; // gone meanwhile
    }
    try {
      for (const mapping of mappings(pid)) {
        if (mapping.rssKb === 0) continue;
        const pages = (mapping.end - mapping.start) / PAGE;
        const entries = Buffer.alloc(pages * 8);
        readSync(pagemap, entries, 0, entries.length, (mapping.start / PAGE) * 8);
        for (let i = 0; i < pages; i++) {
          const entry = entries.readBigUInt64LE(i * 8);
          if ((entry & PRESENT) === 0n) continue;
          if (mapping.file !== null && (entry & FILE_OR_SHARED) !== 0n) {
            sharedPages.add(`${mapping.file}:${mapping.fileOffset / PAGE + i}`);
          } else {
            own++;
          }
        }
      }
    } catch {
      continue; // exited while being read
    } finally {
      closeSync(pagemap);
    }
    privatePages += own;
    privateMbByPid.set(pid, (own * PAGE) / 2 ** 20);
  }
  return { uniqueMb: ((privatePages + sharedPages.size) * PAGE) / 2 ** 20, privateMbByPid };
}
