// The site renderer: a published page as HTML, from the content model's documents. Pure: preact
// elements rendered to a string (escaped by construction), no Nest, no I/O; the sites context gives it
// the navigation, the page and how references become URLs.
export { DocumentRenderer, sanitize } from './document';
// Document queries live in content-model (the page assembler asks them); re-exported for the renderer's users.
export { codeBlocks, codeSyntaxes, includedContents, operationRefs } from '@app/content-model';
export type { RenderOptions } from './document';
export type { ApiBody, ApiOperation, ApiOperationRef, ApiOperations, ApiSchema } from './api-reference';
export { CodeHighlighter } from './highlight';
export { MermaidDiagrams, type DrawnDiagram } from './diagrams';
export type { CodeToken } from './highlight';
export type { DocumentLinks, Heading } from './document';
export { defaultIconSvg, emojiIconSvg, markedExcerpt, renderMessage, renderPage, renderNotFound, renderSearch } from './page';
export type { FrameInsights, InsightsLocation, NavLink, NavNode, PageContent, SearchHit, SiteFrame } from './page';
export { documentCss, siteCss, SITE_JS, type SiteFont } from './assets';
export { renderLlmsFullTxt, renderLlmsTxt, renderRobotsTxt, renderSitemap } from './machine';
export type { ListedGroup, ListedPage } from './machine';
