/**
 * Names shared by the workflows, the worker and the client. Workflow ids are derived from the
 * unit of work so that starting the same work twice is refused by Temporal itself.
 */
export const SEARCH_ATTRIBUTES = {
  LcsUserId: 'Keyword',
  LcsKind: 'Keyword',
} as const;

export const WORKFLOW_KINDS = {
  cardEnrichment: 'card-enrichment',
  sentenceTranslation: 'sentence-translation',
  audio: 'audio',
} as const;

export type WorkflowKind = (typeof WORKFLOW_KINDS)[keyof typeof WORKFLOW_KINDS];

export const workflowId = (kind: WorkflowKind, key: string) => `${kind}/${key}`;

export type KindName = keyof typeof WORKFLOW_KINDS;
