import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect, it, vi } from 'vitest';
import { installTracing } from '../../../src/platform/telemetry.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { capture, waitForStatus } from '../library/helpers.ts';

// Before the stack: the worker hands workflow spans to the processor installed when it starts.
const exported = new InMemorySpanExporter();
await installTracing({ tracing: { otlpEndpoint: undefined } }, { processor: new SimpleSpanProcessor(exported) });

let stack: Started['stack'];
let user: Started['user'];
useStack((started) => ({ stack, user } = started));

/** The span's parent among `spans`, by id. */
const parentOf = (span: ReadableSpan, spans: ReadableSpan[]) => spans.find((s) => s.spanContext().spanId === span.parentSpanId);

it('one capture is one trace: request → outbox → relay start → workflow → activity → provider call, with no user text', async () => {
  const text = 'traced expression nobody else captures';
  const card = await capture(stack, user, text);
  await waitForStatus(stack, user, card.cardId, 'ready');

  const trace = await vi.waitFor(
    () => {
      const request = exported.getFinishedSpans().find((s) => s.name === 'POST /api/library');
      expect(request).toBeDefined();
      const spans = exported.getFinishedSpans().filter((s) => s.spanContext().traceId === request!.spanContext().traceId);
      expect(spans.map((s) => s.name)).toContain('provider call');
      expect(spans.map((s) => s.name)).toContain('RunWorkflow:cardEnrichment');
      return spans;
    },
    { timeout: 15_000 },
  );

  // From the provider call up to the request, each span the child of the next.
  const chain: string[] = [];
  for (let span = trace.find((s) => s.name === 'provider call'); span; span = parentOf(span, trace)) chain.push(span.name);
  expect(chain).toEqual([
    'provider call',
    'RunActivity:prepareCardEnrichment',
    'StartActivity:prepareCardEnrichment',
    'RunWorkflow:cardEnrichment',
    'StartWorkflow:cardEnrichment',
    'POST /api/library',
  ]);
  const request = trace.find((s) => s.name === 'POST /api/library')!;
  expect(request.attributes).toMatchObject({ 'http.route': '/api/library', 'http.response.status_code': 202 });

  const everything = JSON.stringify(exported.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
  expect(everything).not.toContain(text);
});
