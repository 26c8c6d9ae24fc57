import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import { freePort } from './free-port.ts';
import { appendExporter } from './metrics.ts';

let installed = false;

/**
 * Installs the Temporal SDK's runtime once per process, before any worker or native connection:
 * its logs kept to `logLevel` so that logs stay ours, no shutdown signals (the hosting process
 * stops the worker itself, in its own order), and its worker metrics (task slots, poll and
 * schedule-to-start latencies, sticky cache) exported in the Prometheus format on a local port
 * that GET /metrics appends to ours (src/platform/metrics.ts): one place to scrape.
 */
export async function installTemporalRuntime(logLevel: LogLevel = 'WARN'): Promise<void> {
  if (installed) return;
  installed = true;
  const bindAddress = `127.0.0.1:${await freePort()}`;
  try {
    Runtime.install({
      logger: new DefaultLogger(logLevel),
      shutdownSignals: [],
      telemetryOptions: {
        metrics: {
          prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true, unitSuffix: true },
          globalTags: { service: 'language-capture' },
          attachServiceName: false,
        },
      },
    });
    appendExporter(`http://${bindAddress}/metrics`);
  } catch {
    // Already installed by the host: keep theirs.
  }
}
