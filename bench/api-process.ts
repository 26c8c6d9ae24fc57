// The bench's API process: the production app (config from the environment, like `npm run api`)
// plus the bench-only floor routes; prints `listening <port>` once it accepts requests.
import { addBenchRoutes } from './floor-routes.ts';
import { buildApp } from '../src/http/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { openServices } from '../src/wiring/services.ts';

const config = loadConfig();
const services = await openServices(config, createLogger(config));
const app = await buildApp({ config, ...services }, { logger: false });
await addBenchRoutes(app, services.orm);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
config.allowedOrigins.push(`http://127.0.0.1:${port}`);
console.log(`listening ${port}`);
async function close() {
  await app.close();
  await services.close();
}
process.on('SIGTERM', () => {
  close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
