import { metricsRegistry } from '../../src/platform/metrics.ts';

/** The current value of a counter's series with these labels in this process (0 when it has none yet). */
export async function counterValue(name: string, labels: Record<string, string>): Promise<number> {
  const values = (await metricsRegistry.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))?.value ?? 0;
}
