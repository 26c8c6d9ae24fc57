import { router } from './init.ts';

/** Issue #3: tRPC procedures of this area, sharing the REST routes' domain code. */
export const libraryRouter = router({});
