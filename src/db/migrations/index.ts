import { Foundation } from './0001-foundation.ts';
import { WorkflowOutbox } from './0002-workflow-outbox.ts';
import { Library } from './0003-library.ts';
import { Sentences } from './0004-sentences.ts';
import { PageTranslation } from './0005-page-translation.ts';
import { Replay } from './0006-replay.ts';
import { Audio } from './0007-audio.ts';
import { Work } from './0008-work.ts';
import { EdgeLimits } from './0009-edge-limits.ts';
import { CreditHolds } from './0010-credit-holds.ts';
import { Isolation } from './0011-isolation.ts';
import { Faults } from './0012-faults.ts';
import { Retention } from './0013-retention.ts';
import { ReplayTeaching } from './0014-replay-teaching.ts';
import { FsrsOptimisation } from './0015-fsrs-optimisation.ts';
import { OutboxTraceContext } from './0016-outbox-trace-context.ts';
import { PracticeQueueIndexes } from './0017-practice-queue-indexes.ts';
import { CreditHoldAttemptTime } from './0018-credit-hold-attempt-time.ts';
import { ExportLeases } from './0019-export-leases.ts';
import { ProviderOutages } from './0020-provider-outages.ts';
import { PrepareOnRenewal } from './0021-prepare-on-renewal.ts';
import { LibraryImports } from './0022-library-imports.ts';
import { CardContextsEncounters } from './0023-card-contexts-encounters.ts';
import { Progress } from './0024-progress.ts';
import { LibrarySize } from './0025-library-size.ts';
import { ImportSourcesAndHistory } from './0026-import-sources-and-history.ts';
import { ModelOutputModes } from './0027-model-output-modes.ts';
import { ModelCallSlots } from './0028-model-call-slots.ts';
import { ImportReadLeases } from './0029-import-read-leases.ts';
import { ContextSourceUrls } from './0030-context-source-urls.ts';
import { SearchByUser } from './0031-search-by-user.ts';
import { CreditHoldReserve } from './0032-credit-hold-reserve.ts';

/** Every migration, in order. Each feature area appends its own file here. */
export const migrations = [
  Foundation,
  WorkflowOutbox,
  Library,
  Sentences,
  PageTranslation,
  Replay,
  Audio,
  Work,
  EdgeLimits,
  CreditHolds,
  Isolation,
  Faults,
  Retention,
  ReplayTeaching,
  FsrsOptimisation,
  OutboxTraceContext,
  PracticeQueueIndexes,
  CreditHoldAttemptTime,
  ExportLeases,
  ProviderOutages,
  PrepareOnRenewal,
  LibraryImports,
  CardContextsEncounters,
  Progress,
  LibrarySize,
  ImportSourcesAndHistory,
  ModelOutputModes,
  ModelCallSlots,
  ImportReadLeases,
  ContextSourceUrls,
  SearchByUser,
  CreditHoldReserve,
];
