import type { Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import type { WorkflowKind } from './workflow-ids.ts';

/**
 * The search attributes of our workflows, so operators filter a user's workflows (one kind of
 * them, one outcome) in the Web UI. Defined once: starts, the dev server's flags and the
 * registration on a namespace all read this list.
 */
export const userIdKey = defineSearchAttributeKey('LcsUserId', SearchAttributeType.KEYWORD);
export const kindKey = defineSearchAttributeKey('LcsKind', SearchAttributeType.KEYWORD);
/**
 * Set by the workflow as it ends (src/workflows/outcome.ts): a business outcome on a Completed
 * run, the catalog code on a Failed one (src/domain/workflow-outcome.ts).
 */
export const outcomeKey = defineSearchAttributeKey('LcsOutcome', SearchAttributeType.KEYWORD);
const SEARCH_ATTRIBUTE_KEYS = [userIdKey, kindKey, outcomeKey];

export const searchAttributesOf = (userId: string, kind: WorkflowKind): SearchAttributePair[] => [
  { key: userIdKey, value: userId },
  { key: kindKey, value: kind },
];

/** The Temporal CLI's spelling of each type (`--search-attribute LcsUserId=Keyword`). */
const CLI_TYPE_NAME: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** The dev server's flags that register our search attributes when it starts. */
export const searchAttributeFlags = (): string[] => SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=${CLI_TYPE_NAME[key.type]}`]);

/** The operator service's numbering of the same types (temporal.api.enums.v1.IndexedValueType). */
const INDEXED_VALUE_TYPE: Record<SearchAttributeType, number> = {
  TEXT: 1,
  KEYWORD: 2,
  INT: 3,
  DOUBLE: 4,
  BOOL: 5,
  DATETIME: 6,
  KEYWORD_LIST: 7,
};

/**
 * Registers our search attributes on the namespace when they are missing. A cluster that does not
 * allow it (e.g. Temporal Cloud, where attributes are set in the console) is told to the operator,
 * not fatal.
 */
export async function ensureSearchAttributes(client: Client, namespace: string, warn: (msg: string) => void): Promise<void> {
  try {
    const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
    const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !(key.name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return;
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPE[key.type]])),
    });
  } catch (error) {
    const names = SEARCH_ATTRIBUTE_KEYS.map((key) => key.name).join(', ');
    warn(
      `Could not register search attributes ${names}: ${(error as Error).message}. Register them on the namespace so workflows can be filtered by user, ` +
        `kind and outcome.`,
    );
  }
}
