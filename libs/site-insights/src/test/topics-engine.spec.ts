import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { standaloneTextClustering } from '@app/conversations';
import { LocalTopicsEngine, TopicsIndexLost, TopicsUnavailable } from '../application/topics-engine';
import { WorkerTopicsEngine } from '../infrastructure/worker-topics-engine';

const page = (n: number, text: string) => ({
  space: 'space',
  page: `page-${n}`,
  title: `Page ${n}`,
  group: null,
  passages: [{ title: `Page ${n}`, text }],
});
const pages = [
  page(1, 'Deploy the collector as a DaemonSet. The Helm chart installs it.'),
  page(2, 'Run the MSI installer from PowerShell.'),
  page(3, 'The configuration file lists sources and outputs.'),
  page(4, 'Read the release notes before upgrading.'),
];
/** A larger version of a site: its build ends after the small one's. */
const filler = Array.from({ length: 400 }, (_, n) => page(100 + n, `Filler passage ${n} of the older version.`));

/**
 * The topics engine in a worker thread (the built worker, as the server runs it; `npm test` builds before jest),
 * and what it answers when its worker ends (a stand-in worker that ends as one can). The server's use of it:
 * test/process/topics-worker.e2e-spec.ts.
 */
const BUILT = join(process.cwd(), 'dist', 'libs', 'site-insights', 'src', 'infrastructure', 'topics.worker.js');

describe('the topics worker: what its engine answers when the worker ends', () => {
  beforeAll(() => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`npm run build\` before this test`);
  });

  it('indexes, searches and clusters in the worker; a site it does not hold, or held by a worker that ended, is TopicsIndexLost', async () => {
    const engine = new WorkerTopicsEngine(BUILT, 512);
    try {
      // Nothing started: no site is held.
      await expect(engine.contexts('site-1', ['helm'])).rejects.toBeInstanceOf(TopicsIndexLost);
      await engine.index('site-1', pages);
      const [helm, msi] = await engine.contexts('site-1', ['helm chart', 'msi']);
      expect(Object.keys(helm)).toContain('page space page-1');
      expect(Object.keys(msi)).toContain('page space page-2');
      await expect(engine.contexts('site-2', ['helm'])).rejects.toBeInstanceOf(TopicsIndexLost);
      const clusters = await engine.cluster(['helm chart', 'daemonset', 'msi', 'powershell'], [helm, helm, msi, msi]);
      expect(clusters[0]).toBe(clusters[1]);
      expect(clusters[2]).toBe(clusters[3]);
      expect(clusters[0]).not.toBe(clusters[2]);
      await engine.drop('site-1');
      await expect(engine.contexts('site-1', ['helm'])).rejects.toBeInstanceOf(TopicsIndexLost);

      // Of two builds of a site at once, the one asked for last is kept.
      // (The older is the larger: it ends last.)
      const older = engine.index('site-1', [page(9, 'Nothing about charts here, only the older text.'), ...filler, ...pages.slice(1)]);
      const newer = engine.index('site-1', pages);
      await Promise.all([older, newer]);
      expect(Object.keys((await engine.contexts('site-1', ['helm chart']))[0])).toContain('page space page-1');

      // What reaches the worker itself: a newer build, or a drop, asked once the older build's `index` is sent (the
      // worker is indexing it, a slice at a time: the older is large). The worker keeps the newer, and after a drop
      // nothing, though the older ends last.
      const large = Array.from({ length: 3000 }, (_, n) => page(1000 + n, `Filler passage ${n} of a large older version.`));
      const largeOlder = [page(9, 'Nothing about charts here, only the older text.'), ...large];
      const sends = engine as unknown as { call(message: { op: string; siteId?: string }, siteId?: string): Promise<unknown> };
      const send = sends.call.bind(engine);
      const onIndex = new Map<string, () => Promise<void>>();
      const asked: Promise<void>[] = [];
      const spy = jest.spyOn(sends, 'call').mockImplementation((message, siteId) => {
        const sent = send(message, siteId);
        const then = message.op === 'index' ? onIndex.get(message.siteId ?? '') : undefined;
        if (then) {
          onIndex.delete(message.siteId ?? '');
          asked.push(then());
        }
        return sent;
      });
      try {
        onIndex.set('site-2', () => engine.index('site-2', pages));
        await engine.index('site-2', largeOlder);
        await Promise.all(asked);
        expect(asked).toHaveLength(1);
        expect(Object.keys((await engine.contexts('site-2', ['helm chart']))[0])).toContain('page space page-1');
        onIndex.set('site-3', () => engine.drop('site-3'));
        await engine.index('site-3', largeOlder);
        await Promise.all(asked);
        expect(asked).toHaveLength(2);
        await expect(engine.contexts('site-3', ['helm'])).rejects.toBeInstanceOf(TopicsIndexLost);
      } finally {
        spy.mockRestore();
      }
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('fails the calls waiting on a worker that ends (a site’s search as TopicsIndexLost), and starts another at the next call', async () => {
    const engine = new WorkerTopicsEngine(join(process.cwd(), 'test', 'fixtures', 'topics-worker-that-dies.mjs'), 64);
    try {
      await engine.index('site-1', pages);
      const searching = engine.contexts('site-1', ['helm chart']); // never answered by this worker
      const clustering = engine.cluster(['helm chart'], [{}]); // ends it
      await expect(clustering).rejects.toBeInstanceOf(TopicsUnavailable);
      await expect(clustering).rejects.toMatchObject({ why: 'the topics worker ended: exit code 3' });
      await expect(clustering).rejects.toThrow('Topics cannot be computed now (the topics worker stopped): try again later');
      await expect(searching).rejects.toBeInstanceOf(TopicsIndexLost);
      await expect(engine.contexts('site-1', ['helm chart'])).rejects.toBeInstanceOf(TopicsIndexLost);
      await engine.index('site-1', pages); // a worker again
      await expect(engine.cluster(['msi'], [{}])).rejects.toMatchObject({ why: 'the topics worker ended: exit code 3' });
      // Ends while it indexes: the site's index is lost, not a plain error (the caller builds it again).
      await expect(engine.index('dies', pages)).rejects.toBeInstanceOf(TopicsIndexLost);
      // Closed: every call fails, none as TopicsIndexLost (nothing is built again while the application stops).
      await engine.index('site-1', pages);
      const waiting = engine.contexts('site-1', ['msi']);
      await engine.close();
      await expect(waiting).rejects.toThrow(/topics worker ended/);
      await expect(waiting).rejects.not.toBeInstanceOf(TopicsIndexLost);
      await expect(engine.contexts('site-1', ['msi'])).rejects.toThrow(/closed/);
      await expect(engine.index('site-1', pages)).rejects.toThrow(/closed/);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('ends a worker that outgrows its memory limit as a lost index, and the process goes on', () => {
    // In a process of its own, started as the server is: a process given --max-old-space-size (as Jest's is) gives
    // that limit to its workers too, whatever their own (docs/deployment.md).
    const built = (file: string) => JSON.stringify(join(BUILT, '..', '..', ...file.split('/')));
    const script = `
      const { WorkerTopicsEngine } = require(${built('infrastructure/worker-topics-engine.js')});
      const { TopicsIndexLost } = require(${built('application/topics-engine.js')});
      const running = setInterval(() => {}, 1000); // the worker is unref'd: the server's listener keeps it alive
      const engine = new WorkerTopicsEngine(${JSON.stringify(join(process.cwd(), 'test', 'fixtures', 'topics-worker-that-dies.mjs'))}, 64);
      engine.index('grows', []).then(
        () => console.log('indexed'),
        (e) => console.log(e instanceof TopicsIndexLost ? 'lost' : 'failed: ' + e.message),
      ).then(() => engine.close()).then(() => {
        console.log('peak ' + Math.round(process.resourceUsage().maxRSS / 1e3));
        clearInterval(running);
      });`;
    const run = spawnSync(process.execPath, ['-e', script], {
      env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    const out = run.stdout + run.stderr;
    expect(out).toMatch(/The topics worker ended: Worker terminated due to reaching memory limit/);
    expect(out).toMatch(/^lost$/m);
    // The process's memory never grew far past the worker's limit (without it, the worker grows to gigabytes).
    expect(Number(/^peak (\d+)$/m.exec(out)?.[1])).toBeLessThan(600);
  }, 60_000);
});

/**
 * The topics engine in the caller's thread (the one the worker runs too): of two builds of a site at once, the one
 * asked for last is kept, whichever ends last; a drop while a build runs keeps nothing.
 */
describe('the topics engine in the caller’s thread: overlapping builds and drops', () => {
  const older = [page(9, 'Nothing about charts here, only the older text.'), ...filler];
  const ledTo = async (engine: LocalTopicsEngine, siteId: string) => Object.keys((await engine.contexts(siteId, ['helm chart']))[0]);

  it('keeps the build asked for last, whether it ends first or last', async () => {
    const engine = new LocalTopicsEngine(standaloneTextClustering());
    // The older is the larger: it ends last.
    await Promise.all([engine.index('site-1', older), engine.index('site-1', pages)]);
    expect(await ledTo(engine, 'site-1')).toContain('page space page-1');
    // The newer is the larger: it ends last.
    await Promise.all([engine.index('site-2', pages), engine.index('site-2', older)]);
    expect(await ledTo(engine, 'site-2')).not.toContain('page space page-1');
    // One after the other, each is kept in turn.
    await engine.index('site-2', pages);
    expect(await ledTo(engine, 'site-2')).toContain('page space page-1');
  });

  it('keeps no build that a drop overtook, and builds the site again afterwards', async () => {
    const engine = new LocalTopicsEngine(standaloneTextClustering());
    await engine.index('site-1', pages);
    const building = engine.index('site-1', older);
    await engine.drop('site-1');
    await building;
    await expect(engine.contexts('site-1', ['helm'])).rejects.toBeInstanceOf(TopicsIndexLost);
    await engine.index('site-1', pages);
    expect(await ledTo(engine, 'site-1')).toContain('page space page-1');
  });
});
