/**
 * What the Temporal dev server did for the workflows of a phase, from its own Prometheus counters:
 * how many starts it served, how many of them asked to be handed to the worker eagerly (the server counts the asking) and
 * how many of those it refused, how many workflow
 * tasks it had to write to its backlog (no poller waiting), how many timed out in a worker, and
 * its writes of workflow state. These are what its CPU per workflow is made of.
 */
import { scrapedSamples } from '../tools/prometheus-text.ts';

export interface TemporalCounters {
  starts: number;
  /** Starts that asked to be handed to the worker eagerly: the server counts the asking, granted or not. */
  eagerStarts: number;
  /** Of those, the ones the server refused (a start not asked eagerly, because the worker had no slot, counts in neither). */
  eagerDenied: number;
  backloggedWorkflowTasks: number;
  workflowTaskTimeouts: number;
  stateWrites: number;
}

const COUNTERS: Record<keyof TemporalCounters, { name: string; labels: Record<string, string> }> = {
  starts: { name: 'service_requests', labels: { operation: 'StartWorkflowExecution', service_name: 'frontend' } },
  eagerStarts: { name: 'workflow_eager_execution', labels: {} },
  eagerDenied: { name: 'workflow_eager_execution_denied', labels: {} },
  backloggedWorkflowTasks: { name: 'tasks_added', labels: { task_type: 'Workflow', task_add_result: 'backlog', forwarded: 'false' } },
  workflowTaskTimeouts: { name: 'start_to_close_timeout', labels: { operation: 'TimerActiveTaskWorkflowTaskTimeout' } },
  stateWrites: { name: 'persistence_requests', labels: { operation: 'UpdateWorkflowExecution' } },
};

export async function readTemporalCounters(metricsPort: number): Promise<TemporalCounters> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sum = ({ name, labels }: { name: string; labels: Record<string, string> }) =>
    scrapedSamples(text, name, { ...labels, namespace: 'default' }).reduce((total, sample) => total + sample.value, 0);
  return Object.fromEntries(Object.entries(COUNTERS).map(([key, counter]) => [key, sum(counter)])) as unknown as TemporalCounters;
}

export function describeTemporalWork(before: TemporalCounters, after: TemporalCounters): string {
  const d = (key: keyof TemporalCounters) => after[key] - before[key];
  const starts = Math.max(d('starts'), 1);
  return (
    `${d('starts')} starts, ${d('eagerStarts')} asked to be handed to the worker eagerly (${d('eagerDenied')} of them refused), ` +
    `${d('backloggedWorkflowTasks')} workflow tasks written to its backlog, ` +
    `${d('workflowTaskTimeouts')} workflow tasks timed out in a worker, ${(d('stateWrites') / starts).toFixed(1)} state writes per start`
  );
}
