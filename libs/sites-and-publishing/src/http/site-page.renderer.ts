import { Injectable } from '@nestjs/common';
import { documentToMarkdown, locate, pathIndex, pathOf, type ContentRef, type PageNode, type PageTree } from '@app/content-model';
import {
  CodeHighlighter,
  codeSyntaxes,
  MermaidDiagrams,
  renderPage,
  siteCss,
  type SiteFont,
  type FrameInsights,
  type InsightsLocation,
  type NavLink,
  type NavNode,
  type SiteFrame,
} from '@app/site-renderer';
import type { Links } from '@app/http-kit';
import type { Revision, Space } from '@app/spaces-and-content';
import { fileOperationKey, operationKey, schemasKey, webhookKey, type PageModel } from '../application/page-assembler';
import { SiteLocation, VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { applyOverride, type CustomizationSettings } from '../domain/customization';
import { sectionPrefix, siteRoot, siteSpacePrefix } from '../domain/site-urls';

export const SAFE_SCHEMES = /^(https?:|mailto:)/i;

/** A link of the customization (header, footer): a title and where it goes (only URLs are followed here). */
interface LinkSetting {
  title?: string;
  to?: { kind?: string; url?: string };
}

/** Links to URLs a visitor may follow (http, https, mailto); any other kind is left out. */
function urlLinks(links: LinkSetting[] | undefined): NavLink[] {
  return (links ?? []).flatMap((l) =>
    l.title && l.to?.kind === 'url' && l.to.url && SAFE_SCHEMES.test(l.to.url) ? [{ title: l.title, href: l.to.url }] : [],
  );
}

/** An image the page may load: an https URL (the Content-Security-Policy admits those and the site's own). */
const isImageUrl = (v: unknown): v is string => typeof v === 'string' && /^https:\/\//i.test(v) && v.length <= 2048;

/** Above this many listed pages, a space's sidebar shows the current branch and the top level only. */
const NAV_FULL_MAX = 300;

/** The site's root URL: its base (its own hostname, or `/sites/{id}/` on Quire's origin), then its basename. */
export function rootOf(view: VisitorSite): string {
  return siteRoot(view.base, view.site.basename);
}

/**
 * The renderer of a visitor's site: a page model (PageAssembler) as HTML or markdown, and the frame every
 * page of the site shares (header, customization, sidebar, section tabs and variants, breadcrumbs), for the
 * pages, the search page and the 404 page alike.
 */
@Injectable()
export class SitePageRenderer {
  private readonly highlighting: string;

  constructor(
    private readonly sites: VisitorSitesService,
    private readonly highlighter: CodeHighlighter,
    private readonly diagrams: MermaidDiagrams,
  ) {
    this.highlighting = highlighter.css();
  }

  /** The page as the visitor asked for it: HTML in the site's frame, or its markdown. */
  async render(model: PageModel, links: Links): Promise<string> {
    const { view, location, revision, page, document } = model;
    const href = this.hrefs(view, location, revision.tree);
    if (model.format === 'md') return `# ${page.node.title}\n\n${document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : ''}`;
    if (document)
      await Promise.all([
        this.highlighter.prepare(codeSyntaxes(document)),
        ...[document, ...model.reusable.values()].map((doc) => this.diagrams.prepare(doc)),
      ]);
    const coverSrc = page.node.cover ? href(page.node.cover.ref) : null;
    const customization = this.customizationOf(view, location.siteSpace.id);
    return renderPage(this.frame(view, location, revision, page.node.id, links), {
      title: page.node.title,
      description: page.node.description,
      url: `${rootOf(view)}${location.prefix}${page.path}`,
      ...this.around(view, location, revision.tree, page.node.id),
      document,
      links: { href, title: (ref) => (ref.kind === 'page' ? (locate(revision.tree, ref.page)?.node.title ?? null) : null) },
      highlighter: this.highlighter,
      operations: (ref) => model.operations.get(operationKey(ref)) ?? null,
      webhooks: (ref) => model.operations.get(webhookKey(ref)) ?? null,
      specFile: (ref) => model.fileOperations.get(fileOperationKey(ref)) ?? null,
      schemas: (ref) => model.schemas.get(schemasKey(ref)) ?? null,
      reusable: (id) => model.reusable.get(id) ?? null,
      diagram: (source) => this.diagrams.drawn(source),
      variables: (expression) => variableOf(expression, revision.variables ?? {}, page.node.variables ?? {}),
      layout: page.node.layout,
      updatedAt: page.node.updatedAt,
      cover: coverSrc ? { src: coverSrc } : undefined,
      edit: model.edit ?? undefined,
      // A member's preview shows the links that lead nowhere; visitors see their text.
      markBroken: view.preview,
      actions: pageActionsOf(customization),
      feedback: feedbackEnabled(customization) ? { action: `${rootOf(view)}~feedback`, page: `${location.prefix}${page.path}` } : undefined,
    });
  }

  /** The frame of a page that is not one of the site's pages (search, 404): the first site space's sidebar-less frame. */
  emptyFrame(view: VisitorSite, links: Links): SiteFrame {
    const location = this.sites.locate(view, '');
    return location
      ? this.frameWithoutPage(view, location, links)
      : { ...this.baseFrame(view, links), sections: [], variants: [], nav: [] };
  }

  /** The site's stylesheet, restyled by a site space's override (`?s=`). */
  css(view: VisitorSite, siteSpaceId: string | undefined, links: Links): string {
    const customization = this.customizationOf(view, siteSpaceId);
    return siteCss(this.primaryColor(customization), this.highlighting, this.font(customization, view.site.organizationId, links));
  }

  /** The customization a site space shows: the site's, with the site space's override over it. */
  customizationOf(view: VisitorSite, siteSpaceId: string | undefined): CustomizationSettings {
    const override = siteSpaceId !== undefined && Object.hasOwn(view.overrides, siteSpaceId) ? view.overrides[siteSpaceId] : undefined;
    return override ? applyOverride(view.customization, override) : view.customization;
  }

  /**
   * The site's font: an official font name, or a custom font's definition (official
   * `CustomizationFontDefinitionInput`, as `getCustomFont` answers it) whose files are the site's organization's
   * own uploads on this instance; a source anywhere else is left out (the stylesheet loads nothing from elsewhere).
   */
  font(customization: CustomizationSettings, organizationId: string, links: Links): SiteFont | undefined {
    const font = (customization.styling as { font?: unknown } | undefined)?.font;
    if (typeof font === 'string') return font;
    const definition = font as
      { fontFamily?: unknown; fontFaces?: { weight?: unknown; sources?: { url?: unknown; format?: unknown }[] }[] } | undefined;
    if (!definition || typeof definition.fontFamily !== 'string' || !Array.isArray(definition.fontFaces)) return undefined;
    const organizationFile = ownFiles(links, `${organizationId}/`);
    return {
      family: definition.fontFamily,
      faces: definition.fontFaces.map((face) => ({
        weight: typeof face.weight === 'number' ? face.weight : 0,
        sources: (Array.isArray(face.sources) ? face.sources : []).flatMap((s) =>
          typeof s.url === 'string' && organizationFile(s.url) && (s.format === 'woff2' || s.format === 'woff')
            ? [{ url: new URL(s.url).href, format: s.format }]
            : [],
        ),
      })),
    };
  }

  /** The favicon the site's customization sets (an https image per theme, or an emoji), if any. */
  siteFavicon(customization: CustomizationSettings): { light: string; dark: string } | { emoji: string } | undefined {
    const favicon = customization.favicon as { icon?: { light?: unknown; dark?: unknown }; emoji?: unknown } | undefined;
    const icon = favicon?.icon;
    if (icon && isImageUrl(icon.light) && isImageUrl(icon.dark)) return { light: icon.light, dark: icon.dark };
    return typeof favicon?.emoji === 'string' && favicon.emoji.length <= 16 ? { emoji: favicon.emoji } : undefined;
  }

  primaryColor(customization: CustomizationSettings): string | undefined {
    const styling = customization.styling as { primaryColor?: { light?: string } } | undefined;
    return styling?.primaryColor?.light;
  }

  /** Where a reference in a page of `location` goes on this site; null when it leads nowhere a visitor may go. */
  hrefs(view: VisitorSite, location: SiteLocation, tree: PageTree): (ref: ContentRef) => string | null {
    const base = `${rootOf(view)}${location.prefix}`;
    return (ref) => {
      switch (ref.kind) {
        case 'url':
          return SAFE_SCHEMES.test(ref.url) ? ref.url : null;
        case 'anchor':
          return `#${ref.anchor}`;
        case 'page': {
          const path = pathOf(tree, ref.page);
          return path === null ? null : `${base}${path}${ref.anchor ? `#${ref.anchor}` : ''}`;
        }
        case 'file':
          return `${view.base}~files/${location.space.id}/${ref.file}`;
        default:
          return null;
      }
    };
  }

  baseFrame(view: VisitorSite, links: Links, siteSpaceId?: string): Omit<SiteFrame, 'sections' | 'variants' | 'nav'> {
    const root = rootOf(view);
    const customization = this.customizationOf(view, siteSpaceId);
    const themes = customization.themes as { default?: string } | undefined;
    const header = customization.header as { links?: LinkSetting[]; logo?: { light?: unknown; dark?: unknown } } | undefined;
    const footer = customization.footer as { groups?: { title?: string; links?: LinkSetting[] }[]; copyright?: string } | undefined;
    const styling = customization.styling as { corners?: unknown } | undefined;
    // An https image, or a file uploaded to this instance (its own address, whatever its scheme: 'self').
    const ownFile = ownFiles(links);
    const image = (v: unknown): v is string => isImageUrl(v) || (typeof v === 'string' && v.length <= 2048 && ownFile(v));
    const themed = (v: { light?: unknown; dark?: unknown } | undefined) =>
      v && image(v.light) && image(v.dark) ? { light: v.light, dark: v.dark } : undefined;
    const restyled = siteSpaceId !== undefined && Object.hasOwn(view.overrides, siteSpaceId) && view.overrides[siteSpaceId].styling;
    const css = `${view.base}~site.css${restyled ? `?s=${encodeURIComponent(siteSpaceId)}` : ''}`;
    return {
      // The customization's title (official `SiteCustomizationSettings.title`) names the site to its visitors; else the site's.
      title: typeof customization.title === 'string' && customization.title.trim() ? customization.title : view.site.title,
      home: root,
      assets: { css, js: `${view.base}~site.js` },
      theme: themes?.default === 'light' || themes?.default === 'dark' ? themes.default : 'auto',
      noindex: view.noindex,
      headerLinks: urlLinks(header?.links),
      logo: themed(header?.logo),
      socialImage: isImageUrl((customization.socialPreview as { url?: unknown } | undefined)?.url)
        ? (customization.socialPreview as { url: string }).url
        : undefined,
      favicon: this.siteFavicon(customization) ?? { svg: `${view.base}favicon.ico` },
      corners: styling?.corners === 'straight' || styling?.corners === 'circular' ? styling.corners : 'rounded',
      footer: {
        groups: (footer?.groups ?? []).flatMap((g) => (g.title ? [{ title: g.title, links: urlLinks(g.links) }] : [])),
        copyright: typeof footer?.copyright === 'string' && footer.copyright ? footer.copyright : undefined,
      },
      insights: this.insightsOf(view, links, {
        siteSection: null,
        siteSpace: siteSpaceId ?? null,
        space: null,
        revision: null,
        page: null,
      }),
    };
  }

  /**
   * Where the site's script sends its visitors' events (the official trackEventsInSiteById, docs/insights.md), and
   * the ids of what the page shows; none on a member's preview (it is not a visit).
   */
  private insightsOf(view: VisitorSite, links: Links, location: InsightsLocation): FrameInsights | undefined {
    if (view.preview) return undefined;
    return { endpoint: links.api(`/orgs/${view.site.organizationId}/sites/${view.site.id}/insights/events`), location };
  }

  frameWithoutPage(view: VisitorSite, location: SiteLocation, links: Links): SiteFrame {
    return {
      ...this.baseFrame(view, links, location.siteSpace.id),
      ...this.navigation(view, location),
      nav: [],
      insights: this.insightsOf(view, links, this.insightsLocation(location, null, null)),
    };
  }

  private insightsLocation(location: SiteLocation, revision: string | null, page: string | null): InsightsLocation {
    return { siteSection: location.section?.id ?? null, siteSpace: location.siteSpace.id, space: location.space.id, revision, page };
  }

  /**
   * The page's frame with its sidebar. A space of more than NAV_FULL_MAX listed pages gets a sidebar that
   * does not make every page heavy: the top level, the current page's ancestors with their siblings, and
   * the current page's sub-pages; a page whose sub-pages are left out is marked, its link leads to them.
   */
  private frame(view: VisitorSite, location: SiteLocation, revision: Revision, pageId: string, links: Links): SiteFrame {
    const base = `${rootOf(view)}${location.prefix}`;
    const large = this.sites.listed(revision).length > NAV_FULL_MAX;
    const onPath = new Set<string>();
    if (large) {
      const find = (nodes: PageTree): boolean => nodes.some((n) => (n.id === pageId || find(n.pages) ? (onPath.add(n.id), true) : false));
      find(revision.tree);
    }
    // A link page goes where its target is: a page of this space (hidden from this visitor: nowhere) or a web URL.
    let pathById: Map<string, string> | undefined;
    const linkHref = (target: PageNode['target']): string | null => {
      if (target?.kind === 'url') return /^(https?:|mailto:)/i.test(target.url) ? target.url : null;
      if (target?.kind !== 'page') return null;
      pathById ??= new Map([...pathIndex(revision.tree)].map(([path, id]) => [id, path]));
      const path = pathById.get(target.page);
      return path === undefined ? null : `${base}${path}${target.anchor ? `#${encodeURIComponent(target.anchor)}` : ''}`;
    };
    const nav = (nodes: PageTree, prefix: string): NavNode[] =>
      nodes
        .filter((n) => !n.hidden)
        .map((n) => {
          const path = prefix ? `${prefix}/${n.slug}` : n.slug;
          const shown = !large || n.type !== 'document' || onPath.has(n.id);
          const children = shown ? nav(n.pages, path) : [];
          const current = n.id === pageId;
          return {
            title: n.title,
            href: n.type === 'document' ? `${base}${path}` : n.type === 'link' ? linkHref(n.target) : null,
            current,
            open: current || children.some((c) => c.current || c.open),
            children,
            more: !shown && n.pages.some((c) => !c.hidden),
          };
        });
    return {
      ...this.baseFrame(view, links, location.siteSpace.id),
      ...this.navigation(view, location),
      nav: nav(revision.tree, ''),
      insights: this.insightsOf(view, links, this.insightsLocation(location, revision.id, pageId)),
    };
  }

  /** Section tabs and the variant switcher (the site spaces of the current section). */
  private navigation(view: VisitorSite, location: SiteLocation): { sections: NavLink[]; variants: NavLink[] } {
    const root = rootOf(view);
    const sections: NavLink[] = [];
    const walk = (items: VisitorSite['structure']['items']) => {
      for (const item of items) {
        if (item.kind === 'group') walk(item.children);
        else if (item.kind === 'external-link') sections.push({ title: item.title, href: item.url, external: true });
        else
          sections.push({
            title: item.title,
            href: `${root}${sectionPrefix(item)}`,
            current: item.id === location.section?.id,
          });
      }
    };
    walk(view.structure.items);
    const siteSpaces = location.section ? location.section.siteSpaces : view.structure.siteSpaces;
    const shown = siteSpaces.filter((s) => view.spaces.has(s.spaceId));
    const variants =
      shown.length > 1
        ? shown.map((s) => ({
            // A site space's override may give its variant a title of its own.
            title: this.variantTitle(view, s.id) ?? (view.spaces.get(s.spaceId) as Space).title,
            href: `${root}${siteSpacePrefix(location.section, s)}`,
            current: s.id === location.siteSpace.id,
          }))
        : [];
    return { sections: sections.length > 1 ? sections : [], variants };
  }

  private variantTitle(view: VisitorSite, siteSpaceId: string): string | null {
    const title = Object.hasOwn(view.overrides, siteSpaceId) ? view.overrides[siteSpaceId].title : undefined;
    return typeof title === 'string' && title ? title : null;
  }

  /** Breadcrumbs (the page's ancestors that are pages) and the previous and next pages in reading order. */
  private around(
    view: VisitorSite,
    location: SiteLocation,
    tree: PageTree,
    pageId: string,
  ): { breadcrumbs: NavLink[]; previous?: NavLink; next?: NavLink } {
    const base = `${rootOf(view)}${location.prefix}`;
    const order: NavLink[] = [];
    let trail: NavLink[] = [];
    const walk = (nodes: PageTree, prefix: string, ancestors: NavLink[]) => {
      for (const n of nodes) {
        if (n.hidden && n.id !== pageId) continue;
        const path = prefix ? `${prefix}/${n.slug}` : n.slug;
        const link = { title: n.title, href: `${base}${path}` };
        if (n.id === pageId) trail = ancestors;
        if (n.type === 'document') order.push({ ...link, current: n.id === pageId });
        walk(n.pages, path, n.type === 'document' ? [...ancestors, link] : ancestors);
      }
    };
    walk(tree, '', []);
    const at = order.findIndex((l) => l.current);
    const plain = (l: NavLink | undefined) => (l ? { title: l.title, href: l.href } : undefined);
    return { breadcrumbs: trail, previous: at > 0 ? plain(order[at - 1]) : undefined, next: at >= 0 ? plain(order[at + 1]) : undefined };
  }
}

/** Whether the customization asks for page feedback (official `feedback.enabled`). */
export function feedbackEnabled(customization: CustomizationSettings): boolean {
  return (customization.feedback as { enabled?: unknown } | undefined)?.enabled === true;
}

/** The page actions the customization enables (official `pageActions.items`); all when it says nothing readable. */
function pageActionsOf(customization: CustomizationSettings): string[] | undefined {
  const items = (customization.pageActions as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? items.filter((i): i is string => typeof i === 'string') : undefined;
}

/** An expression's value when it names a variable (`space.vars.version`, `page.vars.name`); null otherwise. */
function variableOf(expression: string, space: Record<string, string>, page: Record<string, string>): string | null {
  const m = /^\s*(space|page)\.vars\.([A-Za-z_$][\w$]*)\s*$/.exec(expression);
  if (!m) return null;
  const values = m[1] === 'space' ? space : page;
  return Object.hasOwn(values, m[2]) ? values[m[2]] : null;
}

/** Whether a URL is a file uploaded to this instance (below `under`, a key prefix, when given): its own address, whatever its scheme. */
function ownFiles(links: Links, under = ''): (v: string) => boolean {
  const own = new URL(links.api(`/storage/files/${under}`));
  return (v) => {
    const url = URL.canParse(v) ? new URL(v) : null;
    return (
      !!url &&
      !url.search &&
      url.origin === own.origin &&
      url.pathname.startsWith(own.pathname) &&
      url.pathname.length > own.pathname.length
    );
  };
}
