import { router } from './init.ts';

/** Issue #5: tRPC procedures of this area, sharing the REST routes' domain code. */
export const workRouter = router({});
