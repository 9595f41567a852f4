import { parentPort } from 'node:worker_threads';
import { standaloneTextClustering } from '@app/conversations';
import type { SitePageText } from '@app/sites-and-publishing';
import { LocalTopicsEngine } from '../application/topics-engine';
import type { TopicsCall, TopicsReply } from './worker-topics-engine';

/**
 * The worker thread of `WorkerTopicsEngine`: a `LocalTopicsEngine` of its own (the same analyzer and word vectors
 * the API's clustering has), answering the API's thread's calls. A site's pages arrive in chunks (`add`), then
 * `index` indexes them.
 */
const engine = new LocalTopicsEngine(standaloneTextClustering());
const arriving = new Map<number, SitePageText[]>();
/** The newest build (or drop) of each site that reached `index` (or `drop`). */
const newest = new Map<string, number>();
const port = parentPort!;

async function answer(call: TopicsCall): Promise<unknown> {
  switch (call.op) {
    case 'add':
      arriving.set(call.build, (arriving.get(call.build) ?? []).concat(call.pages));
      return null;
    case 'index': {
      const pages = arriving.get(call.build) ?? [];
      arriving.delete(call.build);
      // A newer build or a drop of the site was asked for already: this one is not kept.
      if ((newest.get(call.siteId) ?? 0) > call.build) return null;
      newest.set(call.siteId, call.build);
      return engine.index(call.siteId, pages);
    }
    case 'drop':
      newest.set(call.siteId, call.build);
      return engine.drop(call.siteId);
    case 'contexts':
      return engine.contexts(call.siteId, call.texts);
    case 'cluster':
      return engine.cluster(call.texts, call.contexts);
  }
}

port.on('message', (call: TopicsCall) => {
  answer(call).then(
    (result) => port.postMessage({ id: call.id, result: result ?? null } satisfies TopicsReply),
    (e: Error) => port.postMessage({ id: call.id, error: { name: e.name, message: e.message } } satisfies TopicsReply),
  );
});
