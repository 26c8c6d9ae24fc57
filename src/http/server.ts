// The API as its own process: `npm run api` (DATABASE_URL and TEMPORAL_ADDRESS required).
import { loadConfig } from '../config.ts';
import { startMetricsServer } from '../platform/metrics.ts';
import { createLogger } from '../platform/logger.ts';
import { openServices } from '../wiring/services.ts';
import { installTracing, shutdownTracing } from '../platform/telemetry.ts';
import { exitOnStartupTimeout } from '../platform/startup.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const logger = createLogger(config);
await installTracing(config);
const services = await openServices(config, logger).catch(exitOnStartupTimeout);
const app = await buildApp({ config, ...services }, { loggerInstance: logger });
await app.listen({ port: config.port, host: config.host });
const metrics = config.metrics.port === undefined ? null : await startMetricsServer({ port: config.metrics.port, host: config.metrics.host });

let closing = false;
async function close() {
  await app.close(); // stops accepting, lets in-flight requests finish
  await metrics?.close();
  await services.close();
  await shutdownTracing();
}
// `on`, not `once`: a second signal (npm forwards the terminal's Ctrl-C) must not end the process mid-close.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    close().catch((error: unknown) => {
      logger.fatal({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  });
}
