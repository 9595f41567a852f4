// The content model: Quire's document (the official JSONDocument), markdown and GitBook's markdown read
// and written, the HTML mapping, page trees, content batches, three-way merges, semantic and block
// changes, links, search sections and translation fragments. Pure and framework-free: no Nest, no
// TypeORM, no I/O. What the API, the site renderer, import/export, translations and PDF share.
export * from './document';
export * from './document-queries';
export * from './files';
export * from './hash';
export * from './tree';
export * from './markdown';
export * from './markdown-links';
export * from './html-sanitize';
export * from './document-to-markdown';
export * from './changes';
export * from './merge';
export * from './semantic-changes';
export * from './block-changes';
export * from './block-revert';
export * from './links';
export * from './search';
export * from './translate-document';
export * from './gitbook-repository';
export * from './gitbook-export';
export * from './repository-sources';
export { QUIRE_STYLE, type MarkdownStyle } from './markdown-write';
