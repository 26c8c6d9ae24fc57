/**
 * What the Temporal dev server did for the workflows of a phase, from its own Prometheus counters:
 * how many starts it served, how many of them asked to be handed to the worker eagerly (the server counts the asking) and
 * how many of those it refused, how many workflow
 * tasks it had to write to its backlog (no poller waiting), how many timed out in a worker, and
 * its writes of workflow state and all its requests to its persistence. These are what its CPU per workflow is made of.
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
  /** Every request to its persistence (SQLite): workflow state, history, tasks, visibility. */
  persistenceRequests: number;
}

const COUNTERS: Record<keyof TemporalCounters, { name: string; labels: Record<string, string> }> = {
  starts: { name: 'service_requests', labels: { namespace: 'default', operation: 'StartWorkflowExecution', service_name: 'frontend' } },
  eagerStarts: { name: 'workflow_eager_execution', labels: { namespace: 'default' } },
  eagerDenied: { name: 'workflow_eager_execution_denied', labels: { namespace: 'default' } },
  backloggedWorkflowTasks: { name: 'tasks_added', labels: { namespace: 'default', task_type: 'Workflow', task_add_result: 'backlog', forwarded: 'false' } },
  workflowTaskTimeouts: { name: 'start_to_close_timeout', labels: { namespace: 'default', operation: 'TimerActiveTaskWorkflowTaskTimeout' } },
  stateWrites: { name: 'persistence_requests', labels: { namespace: 'default', operation: 'UpdateWorkflowExecution' } },
  // Every namespace's: the server's own requests for its task queues and visibility carry `system`.
  persistenceRequests: { name: 'persistence_requests', labels: {} },
};

export async function readTemporalCounters(metricsPort: number): Promise<TemporalCounters> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sum = ({ name, labels }: { name: string; labels: Record<string, string> }) =>
    scrapedSamples(text, name, labels).reduce((total, sample) => total + sample.value, 0);
  return Object.fromEntries(Object.entries(COUNTERS).map(([key, counter]) => [key, sum(counter)])) as unknown as TemporalCounters;
}

export function describeTemporalWork(before: TemporalCounters, after: TemporalCounters): string {
  const d = (key: keyof TemporalCounters) => after[key] - before[key];
  const starts = Math.max(d('starts'), 1);
  const perStart = (key: keyof TemporalCounters) => (d(key) / starts).toFixed(1);
  return (
    `${d('starts')} starts, ${d('eagerStarts')} asked to be handed to the worker eagerly (${d('eagerDenied')} of them refused), ` +
    `${d('backloggedWorkflowTasks')} workflow tasks written to its backlog, ${d('workflowTaskTimeouts')} workflow tasks timed out in a worker, ` +
    `${perStart('stateWrites')} state writes and ${perStart('persistenceRequests')} persistence requests per start`
  );
}
