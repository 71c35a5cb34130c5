import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * OpenTelemetry traces (README, "Operations"): when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), every request becomes a
 * span, with its hooks and handler as children, sent over OTLP/HTTP in batches. An incoming W3C
 * `traceparent` header makes the request part of the caller's trace. Off otherwise: nothing loaded
 * into the request path, nor into memory (the OpenTelemetry packages are loaded only then).
 */
export interface Tracing {
  /** instrument an app; before its routes are declared */
  register(app: FastifyInstance): Promise<void>;
  /** send what is buffered and stop */
  shutdown(): Promise<void>;
}

export async function startTracing(config: Pick<Config, 'tracesEndpoint' | 'OTEL_SERVICE_NAME'>): Promise<Tracing | null> {
  if (!config.tracesEndpoint) return null;
  const [{ FastifyOtelInstrumentation }, { OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] =
    await Promise.all([
      import('@fastify/otel'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-node'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesEndpoint }), { scheduledDelayMillis: 1000 })],
  });
  // the context manager (AsyncLocalStorage) and the W3C propagators, for the whole process
  provider.register();
  const instrumentation = new FastifyOtelInstrumentation({
    ignorePaths: (opts) => opts.url.startsWith('/health') || opts.url === '/metrics',
  });
  instrumentation.setTracerProvider(provider);
  return {
    async register(app) {
      await app.register(instrumentation.plugin());
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
