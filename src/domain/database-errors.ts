/**
 * node-postgres's own errors for a connection lost or never made; they carry no SQLSTATE code.
 * Its messages have been stable for years, and nothing else uses them.
 */
const CONNECTION_LOST = /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)/;

/**
 * A database that is down, restarting or out of connections is a temporary outage, not a bug:
 * socket errors, node-postgres's lost connections, and PostgreSQL's SQLSTATE classes 08
 * (connection), 53 (resources), 57P (shutdown). The HTTP layer answers 503 for it; background work
 * waits it out.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) || /^(08|53|57P)/.test(code))) return true;
  return code === undefined && typeof message === 'string' && CONNECTION_LOST.test(message);
}
