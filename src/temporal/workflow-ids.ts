/**
 * Workflow ids, derived from the unit of work so that starting the same work twice is refused by
 * Temporal itself. The kind is also the `LcsKind` search attribute. These strings are stored
 * (outbox rows, Temporal histories, operators' queries): they never change.
 */
export const WORKFLOW_KINDS = {
  cardEnrichment: 'card-enrichment',
  sentenceTranslation: 'sentence-translation',
  audio: 'audio',
  fsrsOptimisation: 'fsrs-optimisation',
  libraryImport: 'library-import',
} as const;

export type WorkflowKind = (typeof WORKFLOW_KINDS)[keyof typeof WORKFLOW_KINDS];

export const workflowId = (kind: WorkflowKind, key: string) => `${kind}/${key}`;
