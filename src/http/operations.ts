import { accountOperations, signInOperations } from '../features/account/operations.ts';
import { audioOperations } from '../features/audio/operations.ts';
import { creditOperations } from '../features/credits/operations.ts';
import { libraryOperations } from '../features/library/operations.ts';
import { importOperations } from '../features/library/imports/operations.ts';
import { progressOperations } from '../features/progress/operations.ts';
import { replayOperations } from '../features/replay/operations.ts';
import { sentenceOperations } from '../features/sentences/operations.ts';
import { pageTranslationOperations } from '../features/page-translation/operations.ts';
import { draftOperations } from '../features/drafts/operations.ts';
import type { OperationTree } from './operation.ts';
import { feedOf, trpcRouterOf } from './trpc.ts';

/**
 * Every operation on both transports, keyed by its tRPC path (`library.capture`), which is also
 * its OpenAPI operationId; REST mounts each at its own method and path (src/http/rest.ts). The
 * keys are the glossary's names (docs/glossary.md). Sign-up, login and logout are here too, so
 * the web app signs in through its typed client.
 */
export const operations = {
  account: { ...signInOperations, ...accountOperations },
  credits: creditOperations,
  library: { ...libraryOperations, imports: importOperations },
  sentences: sentenceOperations,
  pageTranslation: pageTranslationOperations,
  replay: replayOperations,
  progress: progressOperations,
  audio: audioOperations,
  drafts: draftOperations,
} satisfies OperationTree;

/** `status.changes`: the caller's cards and sentences as their preparation or translation settles. */
const statusFeeds = {
  changes: feedOf((ctx, signal) => ctx.statusHub.changesFor(ctx.principal, signal)),
};

/** tRPC only: live feeds, served as server-sent events (no REST counterpart). */
const feeds = { status: statusFeeds };
/** Their paths ('status.changes'). */
export const feedPaths = Object.entries(feeds).flatMap(([name, router]) => Object.keys(router).map((key) => `${name}.${key}`));

export const appRouter = trpcRouterOf(operations, feeds);

/** What typed tRPC clients import (as a type only). */
export type AppRouter = typeof appRouter;
