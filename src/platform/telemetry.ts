import { context, propagation, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Config } from '../config.ts';

/**
 * OpenTelemetry traces: a capture's request, its outbox row, the relay's start, the workflow, each
 * activity and each provider call, in one trace. Installed once per process, and only when an
 * OTLP endpoint is configured (or a test brings its own processor): otherwise the API's no-op
 * tracer makes every span below free. Spans carry ids, routes, kinds and codes, never user text.
 * The SDK, the exporter and its protobuf types are loaded only then: an idle service that does not
 * trace is spared their memory (about 8 MB).
 */

let installed: { provider: NodeTracerProvider; processor: SpanProcessor; resource: Resource } | undefined;

/** Installs tracing for the process (later calls keep the first installation); says whether traces are exported. */
export async function installTracing(config: Pick<Config, 'tracing'>, options: { processor?: SpanProcessor } = {}): Promise<boolean> {
  if (installed) return true;
  const endpoint = config.tracing.otlpEndpoint;
  if (!endpoint && !options.processor) return false;
  const [{ OTLPTraceExporter }, { Resource }, { BatchSpanProcessor }, { NodeTracerProvider }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  if (installed) return true; // installed by a call that loaded the modules meanwhile
  const processor = options.processor ?? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, '')}/v1/traces` }));
  const resource = new Resource({ 'service.name': 'language-capture' });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register(); // the global tracer, an AsyncLocalStorage context, W3C trace-context propagation
  installed = { provider, processor, resource };
  return true;
}

/** Where a tracing process's workflow spans go (the worker's exporter sink); none when it does not trace. */
export const installedTracing = (): { processor: SpanProcessor; resource: Resource } | undefined => installed;

/** Sends what is buffered and stops exporting. */
export async function shutdownTracing(): Promise<void> {
  await installed?.provider.shutdown();
  installed = undefined;
}

export const tracer = () => trace.getTracer('language-capture');

/** Runs `work` in a span of its own (a child of the active one), ended and marked failed on a throw. */
export async function inSpan<T>(name: string, attributes: Record<string, string | number>, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? (error as Error)?.name });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace context as W3C headers (`traceparent`), to store beside work that runs later; null outside a trace. */
export function activeTraceContext(): Record<string, string> | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : null;
}

/** Runs `work` inside a trace context stored by activeTraceContext (or outside any, for null). */
export function withTraceContext<T>(carrier: Record<string, string> | null, work: () => T): T {
  return carrier ? context.with(propagation.extract(ROOT_CONTEXT, carrier), work) : work();
}
