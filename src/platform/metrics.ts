import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics: one registry per process, shared by the API and the worker
 * when they run together (`npm start`). Operators scrape it on METRICS_PORT, a listener of its
 * own so that operational figures never appear on the public API port. Labels carry kinds and
 * codes only, never user ids or text.
 */
export const metricsRegistry = new Registry();
metricsRegistry.setDefaultLabels({ service: 'language-capture' });
collectDefaultMetrics({ register: metricsRegistry, prefix: 'lcs_' });

/**
 * A counter registered once per process: test files build several apps in one process, and
 * each module asks for its counters by name.
 */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  const existing = metricsRegistry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** `collect`, when given, sets the gauge at each scrape (a figure read from elsewhere, e.g. the database). */
export function gauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  collect?: (this: Gauge<L>) => Promise<void> | void,
): Gauge<L> {
  const existing = metricsRegistry.getSingleMetric(name);
  if (existing) return existing as Gauge<L>;
  return new Gauge({ name, help, labelNames, registers: [metricsRegistry], ...(collect ? { collect } : {}) });
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets?: number[]): Histogram<L> {
  const existing = metricsRegistry.getSingleMetric(name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ name, help, labelNames, registers: [metricsRegistry], ...(buckets ? { buckets } : {}) });
}

/**
 * Other Prometheus exporters of this process whose text GET /metrics appends to the registry's,
 * so that operators scrape one place: the Temporal SDK's own exporter (src/platform/temporal-runtime.ts),
 * which Core serves on a local port of its own.
 */
const appendedExporters = new Set<string>();

export function appendExporter(url: string): void {
  appendedExporters.add(url);
}

/** How long a scrape waits for an appended exporter before leaving its figures out. */
const APPENDED_EXPORTER_TIMEOUT_MS = 2_000;

/** The registry's text, then each appended exporter's (an exporter that does not answer is left out). */
async function exposition(): Promise<string> {
  const appended = await Promise.all(
    [...appendedExporters].map((url) =>
      fetch(url, { signal: AbortSignal.timeout(APPENDED_EXPORTER_TIMEOUT_MS) }).then(
        (res) => (res.ok ? res.text() : ''),
        () => '',
      ),
    ),
  );
  return [await metricsRegistry.metrics(), ...appended].join('\n');
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `GET /metrics` in Prometheus text format on its own port. */
export async function startMetricsServer(options: { port: number; host: string }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    exposition().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
