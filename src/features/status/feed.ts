import { feedOf } from '../../http/trpc.ts';

/** `status.changes`: the caller's cards and sentences as their preparation or translation settles. */
export const statusFeeds = {
  changes: feedOf((ctx, signal) => ctx.statusHub.changesFor(ctx.principal, signal)),
};
