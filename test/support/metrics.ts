import { scrapedSamples } from '../../tools/prometheus-text.ts';
import { metricsRegistry } from '../../src/platform/metrics.ts';

const matches = (labels: Partial<Record<string, string | number>>, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([k, value]) => String(labels[k]) === value);

/** The current value of a counter's series with these labels in this process (0 when it has none yet). */
export async function counterValue(name: string, labels: Record<string, string>): Promise<number> {
  const values = (await metricsRegistry.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => matches(v.labels, labels))?.value ?? 0;
}

/** How many observations a histogram's series with these labels has in this process. */
export async function histogramCount(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await metricsRegistry.getSingleMetric(name)?.get())?.values ?? [];
  // Histogram samples name their series (`_bucket`, `_sum`, `_count`); the client's type leaves it out.
  return values.find((v) => (v as { metricName?: string }).metricName === `${name}_count` && matches(v.labels, labels))?.value ?? 0;
}

/** The value of a sample in Prometheus text whose labels include these (undefined when absent). */
export function scrapedValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return scrapedSamples(text, name, labels)[0]?.value;
}
