import { jest } from '@jest/globals';
import { createServer, Server } from 'node:http';
import request from 'supertest';
import { createTestDatabase } from '../support/database';
import { ApiProcess, startApiProcess } from '../support/process';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
const SERVER = 2;
const CLIENT = 3;

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT set: the built server (instrumentation must load before `pg`, so this is a
 * real process, not jest's module system) exports a span per request, named by its route template,
 * with the PostgreSQL queries as its children, to an OTLP/HTTP collector on loopback.
 */
describe('OpenTelemetry tracing', () => {
  jest.setTimeout(120_000);
  const token = 'quire-tracing-bootstrap-token-00001';
  const auth = { Authorization: `Bearer ${token}` };
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let collector: Server;
  let api: ApiProcess;
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];

  const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;
  const eventually = async (check: () => boolean, what: string) => {
    for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return;
    throw new Error(`not within 15 s: ${what}; exported: ${JSON.stringify(spans.map((s) => [s.kind, s.name]))} ${paths.join(', ')}`);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const address = collector.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    api = await startApiProcess({
      DATABASE_URL: db.url,
      QUIRE_BOOTSTRAP_TOKEN: token,
      QUIRE_JOBS: 'off',
      QUIRE_APERTIUM: 'off',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'quire-under-test',
    });
  });
  afterAll(async () => {
    await api?.stop();
    await new Promise((r) => collector?.close(r));
    await db?.drop();
  });

  it('exports one server span per request, named by its route template, with its PostgreSQL queries as children', async () => {
    const orgId = (await request(api.url).get('/v1/orgs').set(auth).expect(200)).body.items[0].id as string;
    const space = (await request(api.url).post(`/v1/orgs/${orgId}/spaces`).set(auth).send({ title: 'Traced' }).expect(201)).body
      .id as string;
    for (let i = 0; i < 3; i++) await request(api.url).get(`/v1/spaces/${space}`).set(auth).expect(200);
    await request(api.url).get('/health').expect(200);
    await request(api.url).get(`/v1/spaces/${space}x`).set(auth).expect(404);

    const reads = () => spans.filter((s) => s.kind === SERVER && s.name === 'GET /v1/spaces/:spaceId');
    await eventually(() => reads().length >= 4, 'four GET /v1/spaces/:spaceId spans (three answered 200, one 404)');
    expect(paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
    expect(reads()).toHaveLength(4);
    for (const s of reads()) expect(attr(s, 'http.route')?.stringValue).toBe('/v1/spaces/:spaceId');
    expect(spans.filter((s) => s.kind === SERVER && s.name === 'POST /v1/orgs/:organizationId/spaces')).toHaveLength(1);
    // Probes are not traced; every server span has a route or is the unmatched request's bare method.
    expect(spans.some((s) => s.kind === SERVER && JSON.stringify(s.attributes).includes('/health'))).toBe(false);

    // The database work of a write: client spans in the same trace, under the request's span.
    const write = spans.find((s) => s.kind === SERVER && s.name === 'POST /v1/orgs/:organizationId/spaces')!;
    const queries = spans.filter(
      (s) => s.traceId === write.traceId && s.kind === CLIENT && attr(s, 'db.system.name')?.stringValue === 'postgresql',
    );
    expect(queries.map((q) => attr(q, 'db.query.text')?.stringValue ?? '').join('\n')).toMatch(/INSERT INTO "?spaces"?/);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const q of queries) {
      let parent = q.parentSpanId ? byId.get(q.parentSpanId) : undefined;
      while (parent && parent.spanId !== write.spanId) parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined;
      expect(parent?.spanId).toBe(write.spanId);
    }
  });
});
