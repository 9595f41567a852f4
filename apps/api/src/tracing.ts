import { IncomingMessage } from 'node:http';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Span } from '@opentelemetry/api';
import { routeTemplate } from './http/route-template';

export interface Tracing {
  /** Flushes the spans not yet exported, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set and
 * `OTEL_SDK_DISABLED` is not `true`: a server span per HTTP request, named `METHOD /route/template`
 * with `http.route`, and a client span per PostgreSQL query, exported over OTLP/HTTP (the standard
 * `OTEL_*` variables configure the exporter and the batch processor). The packages load only then.
 * Must run before the app's modules load, so that `pg` is instrumented when it is first required.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | null> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null;
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return null;
  // Nest 12 and Express load as ECMAScript modules, which require hooks never see: the loader hook
  // (import-in-the-middle) lets the HTTP instrumentation patch what they import. CommonJS (`pg`) is
  // patched through require hooks.
  register('@opentelemetry/instrumentation/hook.mjs', pathToFileURL(__filename));
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, instrumentation, http, pg] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'quire' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  instrumentation.registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new http.HttpInstrumentation({
        // Probes and scrapes would drown the requests that matter.
        ignoreIncomingRequestHook: (req) => /^\/(health|metrics)(\/|\?|$)/.test(req.url ?? ''),
        // Outgoing calls (webhooks, S3, translators) are traced too; the span name of a request is
        // its route template, known once Express matched it (read at the end, before the span ends).
        applyCustomAttributesOnSpan: (span: Span, request) => {
          if (!(request instanceof IncomingMessage)) return; // a client request
          const route = routeTemplate(request);
          if (!route) return;
          span.setAttribute('http.route', route);
          span.updateName(`${request.method ?? 'GET'} ${route}`);
        },
      }),
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}
