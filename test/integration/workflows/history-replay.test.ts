import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import * as workflows from '../../../src/workflows/index.ts';
import { HISTORIES_DIR, USER_TEXT_MARKER } from '../../../tools/workflow-histories.ts';
import './support.ts'; // the quiet runtime: a replay that fails is reported here, not logged twice

/**
 * Every recorded history (test/integration/workflows/histories/, written by
 * `npm run record:histories`) replayed against the workflow code of this checkout, as the bundle
 * the worker runs. A change that a run opened before a deploy could not replay (an activity
 * reordered, added or removed, a patch dropped too early) fails here, naming the history and the
 * mismatch. docs/workflows.md says how to make such a change safely.
 */
const files = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort();
const histories = files.map((file) => ({ file, json: readFileSync(path.join(HISTORIES_DIR, file), 'utf8') }));

interface JsonPayload {
  data: string;
}

interface JsonHistory {
  events: {
    workflowExecutionStartedEventAttributes?: { workflowType: { name: string }; input?: { payloads: JsonPayload[] } };
    markerRecordedEventAttributes?: { markerName: string; details?: { 'patch-data'?: { payloads: JsonPayload[] } } };
    activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  }[];
}

const eventsOf = (json: string) => (JSON.parse(json) as JsonHistory).events;
const decoded = (payload: JsonPayload) => JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')) as unknown;
const workflowTypeOf = (json: string) => eventsOf(json)[0]!.workflowExecutionStartedEventAttributes!.workflowType.name;
/** The ids of the patches a run recorded: in its markers' payloads, base64, so never found by a search of the text. */
const patchIdsOf = (json: string) =>
  eventsOf(json).flatMap(({ markerRecordedEventAttributes: marker }) =>
    marker?.markerName === 'core_patch' ? marker.details!['patch-data']!.payloads.map((payload) => (decoded(payload) as { id: string }).id) : [],
  );
const preparedRemotely = (json: string) =>
  eventsOf(json).some((event) => event.activityTaskScheduledEventAttributes?.activityType.name === 'prepareCardEnrichment');
const cardRunInput = (json: string) => decoded(eventsOf(json)[0]!.workflowExecutionStartedEventAttributes!.input!.payloads[0]!) as Record<string, unknown>;
const cardRuns = () => histories.filter(({ json }) => workflowTypeOf(json) === workflows.cardEnrichment.name);

describe('recorded workflow histories', () => {
  it.each(histories.map(({ file, json }) => [file, json]))('%s replays on the current workflow code', async (file, json) => {
    try {
      await Worker.runReplayHistory({ workflowBundle: { codePath: inject('infra').workflowBundlePath } }, JSON.parse(json), file);
    } catch (error) {
      const { name, message } = error as Error;
      throw new Error(
        `${file} (a ${workflowTypeOf(json)} run recorded by an earlier version) no longer replays: ${name}: ${message}\n` +
          'A run open at deploy would fail the same way. Keep the old commands behind patched(), or start a new workflow type (docs/workflows.md).',
        { cause: error },
      );
    }
  });

  it('covers every workflow type the worker registers', () => {
    const recorded = new Set(histories.map(({ json }) => workflowTypeOf(json)));
    expect(
      Object.keys(workflows).filter((name) => !recorded.has(name)),
      'workflow types without a recorded history: npm run record:histories',
    ).toEqual([]);
  });

  it('holds runs from before the card-preparation patch, which the patched() branch must keep replaying', () => {
    const beforePatch = cardRuns().filter(
      ({ json }) => preparedRemotely(json) && !patchIdsOf(json).includes('card-preparation-local-activity') && !cardRunInput(json).preparesLocally,
    );
    expect(beforePatch.length).toBeGreaterThan(0);
  });

  it('holds runs started before preparesLocally, whose patch marker the patched() branch must keep replaying', () => {
    const beforeFlag = cardRuns().filter(({ json }) => patchIdsOf(json).includes('card-preparation-local-activity'));
    expect(beforeFlag.length).toBeGreaterThan(0);
  });

  it('holds runs started with preparesLocally, which record no patch', () => {
    const flagged = cardRuns().filter(({ json }) => cardRunInput(json).preparesLocally === true);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.filter(({ json }) => patchIdsOf(json).length > 0 || preparedRemotely(json)).map(({ file }) => file)).toEqual([]);
  });

  it('holds housekeeping passes from before the card_encounters sweep, which the patched() branch must keep replaying', () => {
    const passes = histories.filter(({ json }) => workflowTypeOf(json) === workflows.housekeepingWorkflow.name);
    expect(passes.filter(({ json }) => !patchIdsOf(json).includes('retention-card-encounters')).length).toBeGreaterThan(0);
    expect(passes.filter(({ json }) => patchIdsOf(json).includes('retention-card-encounters')).length).toBeGreaterThan(0);
  });

  it('carries ids, never user text', () => {
    expect(histories.filter(({ json }) => json.includes(USER_TEXT_MARKER)).map(({ file }) => file)).toEqual([]);
  });
});
