import { afterAll, expect, test } from 'vitest';
import { counter, startMetricsServer } from '../../../src/platform/metrics.ts';

const server = await startMetricsServer({ port: 0, host: '127.0.0.1' });
afterAll(() => server.close());

test('GET /metrics serves the registry in Prometheus text format, with process figures', async () => {
  counter('lcs_test_events_total', 'Events seen by this test', ['kind']).inc({ kind: 'a' }, 2);
  const res = await fetch(server.url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  expect(text).toMatch(/^lcs_test_events_total\{kind="a",service="language-capture"\} 2$/m);
  expect(text).toMatch(/^lcs_process_resident_memory_bytes/m);
});

test('a counter asked for twice by name is the same counter', () => {
  const a = counter('lcs_test_twice_total', 'Asked for twice');
  const b = counter('lcs_test_twice_total', 'Asked for twice');
  expect(a).toBe(b);
});

test('anything but GET /metrics is a 404', async () => {
  const res = await fetch(server.url.replace('/metrics', '/other'));
  expect(res.status).toBe(404);
});
