/** The processes below a pid, read from /proc (Linux), to find what `npm start` runs. */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after it are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, ppid, argv };
  } catch {
    return null; // gone meanwhile
  }
}

export function descendants(root: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is ProcInfo => p !== null);
  const found: ProcInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

export const isTemporalDevServer = (p: ProcInfo) => p.argv.includes('server') && p.argv.includes('start-dev');
/** The postmaster, not its backends (whose titles are rewritten to "postgres: …"). */
export const isPostmaster = (p: ProcInfo) => /(^|\/)postgres$/.test(p.argv[0] ?? '') && p.argv.includes('-D');

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readProc(pid) !== null && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
