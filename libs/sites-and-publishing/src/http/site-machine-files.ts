import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { contentHash, documentToMarkdown } from '@app/content-model';
import { renderLlmsFullTxt, renderLlmsTxt, renderRobotsTxt, renderSitemap, type ListedPage } from '@app/site-renderer';
import { VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { rootOf, SitePageRenderer } from './site-page.renderer';
import { VisitorResponses } from './visitor-responses';

/** The files at a site's root for crawlers and agents (page slugs hold no dot: no page can shadow them). */
export const MACHINE_FILES = new Set(['robots.txt', 'sitemap.xml', 'llms.txt', 'llms-full.txt']);

/** robots.txt, sitemap.xml, llms.txt and llms-full.txt of a visitor's site. */
@Injectable()
export class SiteMachineFiles {
  constructor(
    private readonly sites: VisitorSitesService,
    private readonly renderer: SitePageRenderer,
    private readonly responses: VisitorResponses,
  ) {}

  /**
   * robots.txt, sitemap.xml, llms.txt and llms-full.txt: the listed pages of every site space this visitor
   * may see (hidden pages and what their claims hide are left out, as from the navigation); cached like
   * pages, by the site's version, the visitor's segment and the revision of every space.
   */
  async serve(name: string, view: VisitorSite, req: Request, res: Response): Promise<void> {
    const root = rootOf(view);
    if (name === 'robots.txt')
      return this.responses.send(
        req,
        res,
        'text/plain; charset=utf-8',
        Buffer.from(renderRobotsTxt(!view.noindex, `${root}sitemap.xml`), 'utf8'),
        {
          warm: view,
        },
      );
    const shown = await Promise.all(
      this.sites.siteSpaces(view).map(async (s) => ({ ...s, revision: await this.sites.revision(view, s.space) })),
    );
    // llms-full.txt holds every page's body, conditional blocks evaluated: it is kept per set of claims.
    const claims = name === 'llms-full.txt' && Object.keys(view.claims).length ? ` ${contentHash(view.claims)}` : '';
    const key = `${view.key} ${shown.map((s) => `${s.revision.id}:${s.revision.visibility}`).join(',')} ${name} ${view.base}${claims}`;
    const body = await this.responses.cached(key, async () => {
      const groups = shown.map((s) => {
        const listed = this.sites.listed(s.revision);
        return {
          ...s,
          ids: listed.map(({ node }) => node.id),
          title: [s.section?.title, s.space.title].filter(Boolean).join(' › '),
          pages: listed.map(({ node, path }): ListedPage => ({
            title: node.title,
            description: node.description,
            url: `${root}${s.prefix}${path}`,
            lastModified: new Date(node.updatedAt ?? s.revision.createdAt),
          })),
        };
      });
      if (name === 'sitemap.xml') return renderSitemap(groups.flatMap((g) => g.pages));
      if (name === 'llms.txt') return renderLlmsTxt(view.site.title, groups);
      const full: { page: ListedPage; markdown: string }[] = [];
      for (const g of groups) {
        for (const [i, page] of g.pages.entries()) {
          const stored = await this.sites.document(g.space, g.revision, g.ids[i]);
          const document = stored && this.sites.shown(view, stored);
          const href = this.renderer.hrefs(
            view,
            { section: g.section, siteSpace: g.siteSpace, space: g.space, prefix: g.prefix, rest: '' },
            g.revision.tree,
          );
          full.push({ page, markdown: document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : '' });
        }
      }
      return renderLlmsFullTxt(view.site.title, full);
    });
    const type = name === 'sitemap.xml' ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8';
    return this.responses.send(req, res, type, body, { key, warm: view });
  }
}
