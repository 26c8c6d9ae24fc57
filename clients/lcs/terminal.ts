/**
 * The CLI's terminal: answers to questions (hidden for a token), lines from stdin, a progress
 * line on a TTY, and output that is human by default and JSON with `--json`.
 */
import { createInterface } from 'node:readline';
import { io, print, printError } from './io.ts';

/** All of stdin as text. */
export async function stdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io().stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads every non-empty line of stdin. */
export async function stdinLines(): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: io().stdin, crlfDelay: Infinity })) {
    if (line.trim()) lines.push(line.trim());
  }
  return lines;
}

/**
 * Asks questions in turn. On a TTY a hidden answer is not echoed; piped answers are read line by
 * line (readline drops lines that arrive before a question is asked, so they are read up front).
 */
export async function ask(questions: { text: string; hidden?: boolean }[]): Promise<string[]> {
  if (!io().stdin.isTTY) {
    const lines: string[] = [];
    for await (const line of createInterface({ input: io().stdin, crlfDelay: Infinity })) lines.push(line.trim());
    return questions.map((_, i) => lines[i] ?? '');
  }
  const answers: string[] = [];
  for (const question of questions) answers.push(await askOnTty(question.text, question.hidden ?? false));
  return answers;
}

function askOnTty(text: string, hidden: boolean): Promise<string> {
  const rl = createInterface({ input: io().stdin, output: io().stderr, terminal: true });
  if (hidden) {
    // readline echoes through _writeToOutput; muting it after the question hides the typing.
    const internal = rl as unknown as { _writeToOutput(s: string): void };
    const write = internal._writeToOutput.bind(rl);
    internal._writeToOutput = (s: string) => {
      if (!muted || s.includes('\n')) write(muted ? '\n' : s);
    };
  }
  let muted = false;
  return new Promise((resolve) => {
    rl.question(text, (answer) => {
      rl.close();
      resolve(answer.trim());
    });
    muted = hidden;
  });
}

/** A progress line on stderr when it is a TTY; nothing otherwise (scripts read stdout). */
export function progress(total: number) {
  const shown = io().stderr.isTTY && total > 1;
  let done = 0;
  let note = '';
  const draw = () => {
    if (!shown) return;
    const width = 30;
    const filled = Math.round((done / total) * width);
    io().stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${note ? `  ${note}` : ''}\x1b[K`);
  };
  draw();
  return {
    tick() {
      done++;
      draw();
    },
    note(text: string) {
      note = text;
      draw();
    },
    end() {
      if (shown) io().stderr.write('\r\x1b[K');
    },
  };
}

/** Prints JSON for `--json`, the human text otherwise. */
export function output(json: boolean, value: unknown, human: () => string): void {
  print(json ? JSON.stringify(value, null, 2) : human());
}

/**
 * An import's progress on stderr: a bar redrawn in place on a terminal, and a plain line at each
 * 10 % otherwise (a log, a CI job), so a script's output says how far it got without control codes.
 */
export function importProgress(label: string) {
  const tty = Boolean(io().stderr.isTTY);
  let lastTenth = -1;
  return {
    update(done: number, total: number, note: string) {
      const share = total > 0 ? done / total : 1;
      if (tty) {
        const width = 30;
        const filled = Math.round(share * width);
        io().stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${done}/${total}  ${note}\x1b[K`);
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        printError(`${label}: ${tenth * 10} % (${done.toLocaleString('en')}/${total.toLocaleString('en')} done; ${note})`);
      }
    },
    end() {
      if (tty) io().stderr.write('\n');
    },
  };
}
