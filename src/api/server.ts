// The API as its own process: `npm run api` (DATABASE_URL and TEMPORAL_ADDRESS required).
import { loadConfig } from '../config.ts';
import { createLogger, openServices } from '../platform/services.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const logger = createLogger(config);
const services = await openServices(config, logger);
const app = await buildApp({ config, ...services }, { loggerInstance: logger });
await app.listen({ port: config.port, host: config.host });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    if (closing) return;
    closing = true;
    await app.close(); // stops accepting, lets in-flight requests finish
    await services.close();
  });
}
