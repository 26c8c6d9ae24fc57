// The floor of a card's workflow, bundled by the bench's own worker (bench/scenarios/cards.ts): the
// least a workflow can be on this design — started, one local activity, completed.
import { proxyLocalActivities } from '@temporalio/workflow';

const { floorStep } = proxyLocalActivities<{ floorStep(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

export async function minimalWorkflow(): Promise<void> {
  await floorStep();
}
