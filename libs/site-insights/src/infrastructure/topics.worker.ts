import { parentPort } from 'node:worker_threads';
import { standaloneTextClustering } from '@app/conversations';
import type { SitePageText } from '@app/sites-and-publishing';
import { LocalTopicsEngine } from '../application/topics-engine';
import type { TopicsCall, TopicsReply } from './worker-topics-engine';

/**
 * The worker thread of `WorkerTopicsEngine`: a `LocalTopicsEngine` of its own (the same analyzer and word vectors
 * the API's clustering has), answering the API's thread's calls. A site's pages arrive in chunks (`add`), then
 * `index` indexes them (the engine keeps the last build asked for) or `discard` forgets them.
 */
const engine = new LocalTopicsEngine(standaloneTextClustering());
/** The pages of each build being sent. */
const arriving = new Map<number, SitePageText[]>();
const port = parentPort!;

async function answer(call: TopicsCall): Promise<unknown> {
  switch (call.op) {
    case 'add': {
      const pages = arriving.get(call.build) ?? [];
      for (const page of call.pages) pages.push(page);
      arriving.set(call.build, pages);
      return null;
    }
    case 'index': {
      const pages = arriving.get(call.build) ?? [];
      arriving.delete(call.build);
      return engine.index(call.siteId, pages);
    }
    case 'discard':
      arriving.delete(call.build);
      return null;
    case 'drop':
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
