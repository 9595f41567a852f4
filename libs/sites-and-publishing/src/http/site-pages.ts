import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Links } from '@app/http-kit';
import { CodeHighlighter, codeBlocks } from '@app/site-renderer';
import { BoundedMap } from '@app/shared-kernel';
import { keyOf, PageAssembler } from '../application/page-assembler';
import { VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { SitePageRenderer } from './site-page.renderer';
import { VisitorResponses } from './visitor-responses';

/** The code of at most this many listed pages per revision is tokenized ahead of visitors (`codeAhead`). */
const AHEAD_PAGES = 500;

/**
 * A site's pages for its visitors, as one pipeline: the assembler finds the page (or where it went) and lists
 * what its answer depends on; the answer is cached by the key made of those; on a miss the assembler builds
 * the page model and the renderer renders it.
 */
@Injectable()
export class SitePages {
  private readonly aheadOf = new BoundedMap<string, true>(10_000);

  constructor(
    private readonly pages: PageAssembler,
    private readonly renderer: SitePageRenderer,
    private readonly responses: VisitorResponses,
    private readonly sites: VisitorSitesService,
    private readonly highlighter: CodeHighlighter,
  ) {}

  /** The page at `path` below the site's root (`….md`: its markdown), a redirect, or the site's 404. */
  async serve(view: VisitorSite, path: string, req: Request, res: Response, links: Links): Promise<void> {
    const found = await this.pages.find(view, path);
    if (found.kind === 'not-found') return this.responses.notFound(view, res, links);
    if (found.kind === 'redirect') return res.redirect(found.status, found.target);
    const dependencies = await this.pages.depends(found.page);
    const key = keyOf(dependencies);
    let fresh = false;
    const body = await this.responses.cached(key, async () => {
      fresh = found.page.format === 'html';
      return this.renderer.render(await this.pages.assemble(found.page, dependencies), links);
    });
    const type = found.page.format === 'md' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8';
    // A page that shows OpenAPI operations depends on specs that change apart from the site: never kept whole.
    this.responses.send(req, res, type, body, { key, warm: dependencies.specs ? undefined : view });
    if (fresh) this.codeAhead(view).catch(() => undefined);
  }

  /**
   * After a render, the code of the site's other pages is tokenized in the background (once per space
   * revision and process, at most `AHEAD_PAGES` pages each): a visitor's first view of a code-heavy page
   * then finds its tokens remembered instead of compiling the grammar's rules (docs/published-sites.md).
   */
  private async codeAhead(view: VisitorSite): Promise<void> {
    for (const { space } of this.sites.siteSpaces(view)) {
      const revision = await this.sites.revision(view, space);
      const key = `${revision.id}:${revision.visibility}`;
      if (this.aheadOf.has(key)) continue;
      this.aheadOf.set(key, true);
      for (const { node } of this.sites.listed(revision).slice(0, AHEAD_PAGES)) {
        const document = await this.sites.document(space, revision, node.id);
        if (document) void this.highlighter.ahead(codeBlocks(document));
      }
    }
  }
}
