import { accountRouter } from './account.ts';
import { router } from './init.ts';

/** The first-party web page's API. Each feature area adds its router here. */
export const appRouter = router({
  account: accountRouter,
});

export type AppRouter = typeof appRouter;
