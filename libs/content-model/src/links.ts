import { innerNodes, type ContentRef, type DocBlock, type DocInline, type DocText, type JsonDocument } from './document';

export interface ExtractedLink {
  kind: 'page' | 'file' | 'url';
  target: string;
  anchor: string | null;
}

/** Every link and image reference in a document, in document order (same-page anchors excluded). */
export function extractLinks(doc: JsonDocument): ExtractedLink[] {
  const out: ExtractedLink[] = [];
  const add = (ref: ContentRef | undefined) => {
    if (!ref) return;
    if (ref.kind === 'page') out.push({ kind: 'page', target: ref.page, anchor: ref.anchor ?? null });
    else if (ref.kind === 'file') out.push({ kind: 'file', target: ref.file, anchor: null });
    else if (ref.kind === 'url') out.push({ kind: 'url', target: ref.url, anchor: null });
  };
  const walk = (n: DocBlock | DocInline | DocText) => {
    if (n.object === 'text') return;
    if (n.object === 'inline' && 'ref' in n.data) add(n.data.ref);
    if (n.object === 'block' && n.type === 'image') add(n.data.ref as ContentRef);
    innerNodes(n).forEach(walk);
  };
  doc.nodes.forEach(walk);
  return out;
}

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** A link's status in a revision: pages and files must exist there; URLs into the web app are `in-app`. */
export function linkStatus(link: ExtractedLink, pages: Set<string>, files: Set<string>, appOrigin: string): LinkStatus {
  if (link.kind === 'page') return pages.has(link.target) ? 'ok' : 'broken';
  if (link.kind === 'file') return files.has(link.target) ? 'ok' : 'broken';
  if (unresolvedUrl(link.target)) return 'broken';
  return link.target.startsWith(appOrigin) ? 'in-app' : 'ok';
}

/**
 * A link target left as a URL that names no page, file or web address: a relative path (`../setup.md`,
 * `.gitbook/assets/gone.png`, `/old/page`) the import could not resolve. It goes nowhere on a site: it is kept as
 * written (a later import may resolve it), reported as broken, and shown as text to visitors.
 */
export function unresolvedUrl(url: string): boolean {
  return url.trim() !== '' && !url.startsWith('#') && !url.startsWith('//') && !/^[a-z][a-z0-9+.-]*:/i.test(url);
}
