/**
 * How `lcs` (the CLI and the MCP server) talks to the service: the shared REST client, and one
 * place that turns an answer into its data or into a `ServiceError` carrying the problem's code
 * and plain-language detail. The CLI waits out 429s; the MCP server reports them to its agent.
 */
import { createRestClient, type Problem, type RestClient } from '../rest/client.ts';
import { assertSafeTransport, type Connection, insecureAllowed } from './config.ts';
import { exitCodeFor, type ExitCode } from './exit.ts';

export class ServiceError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly retryAfterSeconds: number | null;
  /** The problem's extension members (RFC 9457), e.g. the `importId` of the import that is in the way. */
  readonly extensions: Readonly<Record<string, unknown>>;
  constructor(message: string, code: string, status: number | null, retryAfterSeconds: number | null = null, extensions: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.extensions = extensions;
  }

  get exitCode(): ExitCode {
    return exitCodeFor(this.status);
  }
}

export interface Api {
  client: RestClient;
  url: string;
  /** One request through the shared client: its data, or a ServiceError. */
  call<T>(request: (client: RestClient) => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T>;
}

export interface ApiOptions {
  /** Retry a 429 after its Retry-After, this many times (the CLI); 0 reports it at once (MCP). */
  rateLimitRetries: number;
  /** Told before each wait, e.g. to show it on the progress line. */
  onWait?: (seconds: number) => void;
  fetch?: typeof globalThis.fetch;
}

/** Longest single wait honoured: a longer Retry-After is reported instead of slept through. */
const MAX_WAIT_SECONDS = 120;

export function connect(connection: Connection, options: ApiOptions): Api {
  assertSafeTransport(connection.url, insecureAllowed());
  const client = createRestClient({ baseUrl: connection.url, token: connection.token, fetch: options.fetch });
  const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return {
    client,
    url: connection.url,
    async call(request) {
      for (let attempt = 0; ; attempt++) {
        let answer: Awaited<ReturnType<typeof request>>;
        try {
          answer = await request(client);
        } catch (error) {
          const reason: unknown = (error as Error).cause ?? (error as Error).message;
          throw new ServiceError(`Cannot reach the service at ${connection.url} (${String(reason)}).`, 'unreachable', null);
        }
        const { data, error, response } = answer;
        if (!error && response.ok) return data as never;
        const failure = problemError(response, error);
        const wait = failure.retryAfterSeconds;
        if (response.status === 429 && attempt < options.rateLimitRetries && wait !== null && wait <= MAX_WAIT_SECONDS) {
          options.onWait?.(wait);
          await sleep(wait);
          continue;
        }
        throw failure;
      }
    },
  };
}

function problemError(response: Response, body: unknown): ServiceError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Partial<Problem>;
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : null;
  const fields = [...new Set((problem.errors ?? []).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)))].join('; ');
  const said = problem.detail ?? problem.title ?? `The service answered ${response.status} ${response.statusText}.`;
  // A 400's detail is general; its field errors say what to change.
  const detail = fields ? `${said.replace(/\.$/, '')} (${fields}).` : said;
  const code = problem.code ?? (response.status >= 500 ? 'service_unavailable' : `http_${response.status}`);
  const { type: _type, title: _title, status: _status, detail: _detail, instance: _instance, code: _code, errors: _errors, ...extensions } = problem;
  return new ServiceError(detail, code, response.status, retryAfterSeconds, extensions);
}
