/** A sample of Prometheus text exposition: its labels and value. */
export interface ScrapedSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * Every sample of `name` in Prometheus text whose labels include `labels`: what the tests read
 * from GET /metrics and the bench from the Temporal dev server's exporter.
 */
export function scrapedSamples(text: string, name: string, labels: Record<string, string> = {}): ScrapedSample[] {
  const samples: ScrapedSample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) samples.push({ labels: present, value: Number(match[3]) });
  }
  return samples;
}
