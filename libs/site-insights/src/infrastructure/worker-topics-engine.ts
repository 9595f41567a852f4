import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import type { SitePageText } from '@app/sites-and-publishing';
import { TopicsEngine, TopicsIndexLost, TopicsUnavailable } from '../application/topics-engine';

/** A site's pages go to the worker this many at a time (a message of a few MB at most: the API's thread copies it). */
const PAGES_A_MESSAGE = 100;

/**
 * A message to the worker (topics.worker.ts), answered by a `TopicsReply` with the same id. A build's pages arrive
 * in `add`s numbered by `build`; then `index` indexes them, or `discard` forgets them (a later build, or a drop, was
 * asked for meanwhile). A site's `index`es reach the worker in the order their builds were asked for.
 */
export type TopicsCall =
  | { id: number; op: 'add'; build: number; pages: readonly SitePageText[] }
  | { id: number; op: 'index'; build: number; siteId: string }
  | { id: number; op: 'discard'; build: number }
  | { id: number; op: 'drop'; siteId: string }
  | { id: number; op: 'contexts'; siteId: string; texts: readonly string[] }
  | { id: number; op: 'cluster'; texts: readonly string[]; contexts: readonly Readonly<Record<string, number>>[] };

export type TopicsReply = { id: number; result: unknown } | { id: number; error: { name: string; message: string } };

/**
 * The topics engine in a worker thread (topics.worker.js, next to this file once built): the API's thread only
 * copies a site's pages to it, a chunk at a time, and the queries and their contexts; indexing, searching and
 * clustering hold the worker's thread, not the one that answers pages. The worker starts at the first call and
 * stays (its word vectors and the sites' indexes are what it is for); if it ends (out of its memory, `memoryMb`, for
 * one), the calls waiting on it fail (those that need a site's index, `index` and `contexts`, with
 * `TopicsIndexLost`, so the caller indexes the site again; a clustering with `TopicsUnavailable`) and the next call
 * starts another.
 */
export class WorkerTopicsEngine extends TopicsEngine {
  private readonly logger = new Logger('SiteInsights');
  /** The worker running, and the calls waiting on it. */
  private current: { worker: Worker; waiting: Map<number, Waiting> } | null = null;
  private calls = 0;
  private builds = 0;
  /** Each site's build sending its pages, the last one asked for (an entry lives while that build runs). */
  private readonly building = new Map<string, number>();
  private closed = false;

  /** `memoryMb`: the worker's heap at most (its old generation, where the indexes live). */
  constructor(
    private readonly file: string,
    private readonly memoryMb: number,
  ) {
    super();
  }

  async index(siteId: string, pages: readonly SitePageText[]): Promise<void> {
    if (this.closed) throw new Error('The topics engine is closed');
    const build = ++this.builds;
    this.building.set(siteId, build);
    const last = () => this.building.get(siteId) === build;
    // Every message of a build goes to one worker: another holds none of the pages sent before.
    const worker = this.current ?? this.started();
    const call = (message: DistributiveOmit<TopicsCall, 'id'>) =>
      this.current === worker ? this.call(message, siteId) : Promise.reject(new TopicsIndexLost(siteId));
    try {
      // A large site's pages take many messages: a build asked for later, or a drop, stops this one sending them,
      // so the worker gets a site's `index`es in the order they were asked for (and keeps the last).
      for (let i = 0; i < pages.length && last(); i += PAGES_A_MESSAGE)
        await call({ op: 'add', build, pages: pages.slice(i, i + PAGES_A_MESSAGE) });
      await call(last() ? { op: 'index', build, siteId } : { op: 'discard', build });
    } catch (e) {
      // The pages sent are not left in a worker that goes on.
      if (this.current === worker) void this.call({ op: 'discard', build }).catch(() => undefined);
      throw e;
    } finally {
      if (last()) this.building.delete(siteId);
    }
  }

  async drop(siteId: string): Promise<void> {
    this.building.delete(siteId);
    // A worker not running holds nothing.
    if (this.current) await this.call({ op: 'drop', siteId });
  }

  contexts(siteId: string, texts: readonly string[]): Promise<Record<string, number>[]> {
    // A worker started since the site was indexed does not hold it.
    if (!this.current && !this.closed) return Promise.reject(new TopicsIndexLost(siteId));
    return this.call({ op: 'contexts', siteId, texts }, siteId) as Promise<Record<string, number>[]>;
  }

  cluster(texts: readonly string[], contexts: readonly Readonly<Record<string, number>>[]): Promise<number[]> {
    return this.call({ op: 'cluster', texts, contexts }) as Promise<number[]>;
  }

  /** Ends the worker for good (the application stops): the calls waiting on it and any later call fail. */
  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = null;
    if (current) await current.worker.terminate();
  }

  /** A call of the worker; `siteId`: the call needs the site's index, which a worker that ends loses (`TopicsIndexLost`). */
  private call(message: DistributiveOmit<TopicsCall, 'id'>, siteId?: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The topics engine is closed'));
    const { worker, waiting } = this.started();
    const id = ++this.calls;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject, siteId });
      try {
        worker.postMessage({ ...message, id });
      } catch (e) {
        // Not sent (a value that cannot be copied): no reply will come.
        waiting.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  private started(): { worker: Worker; waiting: Map<number, Waiting> } {
    if (this.current) return this.current;
    const worker = new Worker(this.file, { resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    const waiting = new Map<number, Waiting>();
    // The process may end while it works (a shutdown does not wait for topics).
    worker.unref();
    worker.on('message', (reply: TopicsReply) => {
      const call = waiting.get(reply.id);
      if (!call) return;
      waiting.delete(reply.id);
      if ('result' in reply) call.resolve(reply.result);
      else if (reply.error.name === 'TopicsIndexLost' && call.siteId) call.reject(new TopicsIndexLost(call.siteId));
      else call.reject(new Error(reply.error.message));
    });
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      if (this.current?.worker === worker) {
        this.current = null;
        this.logger.error(`The topics worker ended: ${why}`);
      }
      for (const call of waiting.values())
        call.reject(
          this.closed
            ? new Error(`The topics worker ended: ${why}`)
            : call.siteId
              ? new TopicsIndexLost(call.siteId)
              : new TopicsUnavailable(`the topics worker ended: ${why}`),
        );
      waiting.clear();
    };
    worker.on('error', (e) => end(e.message));
    // A reply that cannot be read: no call knows it was its own, so none may wait for ever.
    worker.on('messageerror', (e) => {
      end(`a reply could not be read (${e.message})`);
      void worker.terminate();
    });
    worker.on('exit', (code) => end(`exit code ${code}`));
    this.current = { worker, waiting };
    this.logger.log('Topics are computed in a worker thread');
    return this.current;
  }
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** The site a `contexts` call reads: its index is lost if the worker ends. */
  siteId?: string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
