import { Foundation } from './0001-foundation.ts';

/** Every migration, in order. Each feature area appends its own file here. */
export const migrations = [Foundation];
