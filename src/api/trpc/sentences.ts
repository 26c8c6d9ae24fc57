import { router } from './init.ts';

/** Issue #4: tRPC procedures of this area, sharing the REST routes' domain code. */
export const sentencesRouter = router({});
