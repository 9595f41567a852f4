import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TopicsIndexLost } from '../application/topics-engine';
import { WorkerTopicsEngine } from '../infrastructure/worker-topics-engine';

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

  it('indexes, searches and clusters in the worker; a site it does not hold, or held by a worker that ended, is TopicsIndexLost', async () => {
    const engine = new WorkerTopicsEngine(BUILT);
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
      const filler = Array.from({ length: 400 }, (_, n) => page(100 + n, `Filler passage ${n} of the older version.`));
      const older = engine.index('site-1', [page(9, 'Nothing about charts here, only the older text.'), ...filler, ...pages.slice(1)]);
      const newer = engine.index('site-1', pages);
      await Promise.all([older, newer]);
      expect(Object.keys((await engine.contexts('site-1', ['helm chart']))[0])).toContain('page space page-1');
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('fails the calls waiting on a worker that ends (a site’s search as TopicsIndexLost), and starts another at the next call', async () => {
    const engine = new WorkerTopicsEngine(join(process.cwd(), 'test', 'fixtures', 'topics-worker-that-dies.mjs'));
    try {
      await engine.index('site-1', pages);
      const searching = engine.contexts('site-1', ['helm chart']); // never answered by this worker
      const clustering = engine.cluster(['helm chart'], [{}]); // ends it
      await expect(clustering).rejects.toThrow(/topics worker ended: exit code 3/);
      await expect(searching).rejects.toBeInstanceOf(TopicsIndexLost);
      await expect(engine.contexts('site-1', ['helm chart'])).rejects.toBeInstanceOf(TopicsIndexLost);
      await engine.index('site-1', pages); // a worker again
      await expect(engine.cluster(['msi'], [{}])).rejects.toThrow(/exit code 3/);
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
});
