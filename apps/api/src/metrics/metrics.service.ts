import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Db } from '@app/persistence';
import { NAMED_CACHES } from '@app/shared-kernel';
import { SearchService } from '@app/spaces-and-content';
import { routeTemplate } from '../http/route-template';
import { FrontDoor } from '@app/http-kit';

/**
 * Prometheus metrics of this process (prom-client, its own registry): requests per route template and
 * status, the database pool, job queues, the search bulkhead, cache hit ratios, and the process itself.
 * Served at `GET /metrics` when QUIRE_METRICS=on (docs/deployment.md).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;

  constructor(db: Db, search: SearchService, door: FrontDoor) {
    collectDefaultMetrics({ register: this.registry, prefix: 'quire_' });
    this.requests = new Counter({
      name: 'quire_http_requests_total',
      help: 'HTTP requests answered, per route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'quire_http_request_duration_seconds',
      help: 'Time to answer, per route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    // Published pages answered from memory before any route (FrontDoor): not in quire_http_requests_total.
    new Counter({
      name: 'quire_front_door_answers_total',
      help: 'Requests answered from memory before any route (warm published pages; not counted per route)',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(door.answered);
      },
    });
    new Gauge({
      name: 'quire_front_door_kept_bytes',
      help: 'Bytes of the answers the front door keeps',
      registers: [this.registry],
      collect() {
        this.set(door.keptBytes);
      },
    });
    new Gauge({
      name: 'quire_db_pool_connections',
      help: 'Database pool connections: total, idle, and callers waiting for one',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const p = db.poolStats();
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'in_use' }, p.total - p.idle);
        this.set({ state: 'waiting' }, p.waiting);
      },
    });
    let jobsTable = false; // pg-boss's own table: absent until a process ran jobs once, then there for good
    new Gauge({
      name: 'quire_jobs',
      help: 'Background jobs per queue and state (pg-boss; failed = failed for good; completed ones are not counted)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        jobsTable ||= (await db.query<{ exists: boolean }[]>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`))[0].exists;
        if (!jobsTable) return;
        // Completed jobs are most of the table (kept 12 h): leaving them out keeps the scrape small.
        const rows = await db.query<{ queue: string; state: string; count: number }[]>(
          `SELECT name AS queue, state::text AS state, count(*)::int AS count FROM pgboss.job WHERE state <> 'completed' GROUP BY 1, 2`,
        );
        for (const row of rows) this.set({ queue: row.queue, state: row.state }, row.count);
      },
    });
    new Gauge({
      name: 'quire_search_ranking',
      help: 'Search ranking bulkhead: statements running, and callers waiting for a slot',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const load = search.load;
        this.set({ state: 'active' }, load.active);
        this.set({ state: 'waiting' }, load.waiting);
      },
    });
    const caches = (what: 'hits' | 'misses' | 'bytes') => () => {
      const sums = new Map<string, number>();
      for (const ref of NAMED_CACHES) {
        const cache = ref.deref();
        if (!cache) NAMED_CACHES.delete(ref);
        else sums.set(cache.name, (sums.get(cache.name) ?? 0) + cache.stats[what]);
      }
      return sums;
    };
    for (const [what, help] of [
      ['hits', 'Reads served from an in-process cache'],
      ['misses', 'Reads an in-process cache could not serve'],
      ['bytes', 'Bytes held by an in-process cache'],
    ] as const) {
      const sum = caches(what);
      new Gauge({
        name: `quire_cache_${what}`,
        help,
        labelNames: ['cache'],
        registers: [this.registry],
        collect() {
          for (const [name, value] of sum()) this.set({ cache: name }, value);
        },
      });
    }
  }

  /** `GET /metrics` in the Prometheus text format; with a token, only `Authorization: Bearer <token>` scrapes. */
  endpoint(token: string | null) {
    const expected = token ? Buffer.from(`Bearer ${token}`) : null;
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' || (req.path !== '/' && req.path !== '')) return next();
      const given = Buffer.from(req.headers.authorization ?? '');
      if (expected && (given.length !== expected.length || !timingSafeEqual(given, expected))) {
        res.status(401).json({ error: { code: 401, message: 'Metrics need the scrape token (Authorization: Bearer …)' } });
        return;
      }
      this.registry.metrics().then(
        (text) => res.type(this.registry.contentType).send(text),
        (e: unknown) => next(e),
      );
    };
  }

  /** Counts and times every request once it is answered, by route template (never the raw URL: ids would explode the labels). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const end = this.durations.startTimer();
      res.once('finish', () => {
        const labels = { method: req.method, route: routeTemplate(req) ?? 'unmatched', status: String(res.statusCode) };
        this.requests.inc(labels);
        end(labels);
      });
      next();
    };
  }
}
