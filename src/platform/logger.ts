import pino from 'pino';
import type { Config } from '../config.ts';

/** The service's one log, JSON lines on stdout: the API's, the worker's and their activities'. */
export const createLogger = (config: Config) => pino({ level: config.logLevel, base: { service: 'language-capture' } });
