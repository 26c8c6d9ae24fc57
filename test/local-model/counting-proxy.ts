import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** What MODEL_BASE_URL is set to: the server's own `/v1`, through the proxy. */
  baseUrl: string;
  /** Chat completions in flight now, and the most there ever were at once since the last `resetPeak`. */
  inFlight(): number;
  peak(): number;
  /** Chat completions answered since the start, with each request's response_format type (or 'text'). */
  readonly calls: { outputMode: string; status: number }[];
  resetPeak(): void;
  close(): Promise<void>;
}

/**
 * A pass-through in front of the local inference server that counts the chat completions in flight:
 * llama-cpp-python's server reports no such figure, and its own queue would hide how many our
 * processes had sent. Everything else is forwarded as it is.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let inFlight = 0;
  let peak = 0;
  const calls: CountingProxy['calls'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const counted = req.url?.endsWith('/chat/completions') ?? false;
      if (counted) peak = Math.max(peak, ++inFlight);
      let settled = !counted;
      // Once per call, however it ends: answered, refused, or given up by the client (its timeout).
      const settle = (status: number) => {
        if (settled) return;
        settled = true;
        inFlight--;
        calls.push({ outputMode: outputModeOf(body), status });
      };
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => settle(answer.statusCode ?? 0));
        },
      );
      forward.on('error', () => {
        settle(0);
        res.destroy();
      });
      res.on('close', () => {
        if (res.writableFinished) return;
        settle(0);
        forward.destroy();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname.replace(/\/+$/, '')}`,
    inFlight: () => inFlight,
    peak: () => peak,
    calls,
    resetPeak: () => {
      peak = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function outputModeOf(body: Buffer): string {
  try {
    const type = (JSON.parse(body.toString('utf8')) as { response_format?: { type?: unknown } }).response_format?.type;
    return typeof type === 'string' ? type : 'text';
  } catch {
    return 'unreadable';
  }
}
