import { z } from 'zod';

/** A timestamp as the API sends it: ISO 8601 in UTC. */
export const isoDate = z.string().meta({ format: 'date-time' });
