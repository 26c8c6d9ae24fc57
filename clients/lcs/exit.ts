/** How `lcs` ends: the exit codes it promises, and the failure of its own that carries one. */
/** The exit codes the CLI promises (README, "CLI"). */
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 3, noCredits: 4, unavailable: 5 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure of the CLI's own (bad input before any request), with its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The exit code for an HTTP status; null is a service that could not be reached. */
export function exitCodeFor(status: number | null): ExitCode {
  if (status === null || status === 429 || status >= 500) return EXIT.unavailable;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 402) return EXIT.noCredits;
  if (status === 400 || status === 413 || status === 415 || status === 422) return EXIT.usage;
  return EXIT.failure;
}
