import type { ContentRef } from './document';

/**
 * Links between markdown and the document model: a markdown link target read as a content reference, and a
 * reference written back as the target markdown holds.
 */

/** Resolves a link target written in markdown to a content reference (pages, files, anchors, URLs). */
export type LinkResolver = (url: string) => ContentRef;

export const defaultLinkResolver: LinkResolver = (url) => {
  const page = /^\/pages\/([^/#?]+)(?:#(.+))?$/.exec(url);
  if (page) return page[2] ? { kind: 'page', page: page[1], anchor: page[2] } : { kind: 'page', page: page[1] };
  const file = /^\/files\/([^/#?]+)$/.exec(url);
  if (file) return { kind: 'file', file: file[1] };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
};

export function refToUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}${ref.anchor ? `#${ref.anchor}` : ''}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return `#${ref.anchor}`;
    case 'url':
      return ref.url;
    default:
      // The official kinds markdown has no URL for (a collection, space, user, reusable content …):
      // the link keeps its text and an empty target here; the stored document keeps the reference.
      return typeof (ref as unknown as { url?: unknown }).url === 'string' ? (ref as unknown as { url: string }).url : '';
  }
}
