import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { documentToMarkdown } from '@app/content-model';
import type { Links } from '@app/http-kit';
import { markedExcerpt, renderSearch, type SearchHit } from '@app/site-renderer';
import { SearchService } from '@app/spaces-and-content';
import { InvalidInputError } from '@app/shared-kernel';
import { citedNumbers, SiteAnswerer } from '../application/site-answers';
import { SiteLocation, VisibleRevision, VisitorSite, VisitorSitesService } from '../application/visitor-sites.service';
import { rootOf, SitePageRenderer } from './site-page.renderer';

/** How many of the best pages `~ask` gives the language model. */
const ASK_SOURCES = 5;

/** A search hit of a visitor's site, with its rank and where its page is. */
type RankedHit = SearchHit & {
  rank: number;
  source: { location: SiteLocation; revision: VisibleRevision; pageId: string; pageUrl: string };
};

/** A site's search and answers for its visitors: `~search` (a page), `~search.json` (as you type) and `~ask`. */
@Injectable()
export class SiteSearch {
  constructor(
    private readonly sites: VisitorSitesService,
    private readonly search: SearchService,
    private readonly renderer: SitePageRenderer,
    @Optional() @Inject(SiteAnswerer) private readonly answerer: SiteAnswerer | null,
  ) {}

  /**
   * The site's search (`~search?q=`): every site space this visitor sees, ranked by the full-text index of
   * its current revision; hidden pages are left out, as from the navigation. Not cached (queries vary).
   */
  async searchPage(view: VisitorSite, req: Request, res: Response, links: Links): Promise<void> {
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    const frame = this.renderer.emptyFrame(view, links);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (!query) return void res.type('text/html; charset=utf-8').send(renderSearch(frame, '', []));
    const found = await this.hits(view, query);
    // A query the index refuses (too long) is the visitor's mistake, said on the page.
    if ('problem' in found)
      return void res
        .status(400)
        .type('text/html; charset=utf-8')
        .send(renderSearch(frame, query, [], found.problem));
    res.type('text/html; charset=utf-8').send(renderSearch(frame, query, found.hits));
  }

  /**
   * `~search.json?q=`: the same hits for search as you type (the site's script), each excerpt already
   * sanitized to `<mark>` only; at most 8. An empty query has no hits; a refused one is a 400 in the error envelope.
   */
  async searchJson(view: VisitorSite, req: Request, res: Response): Promise<void> {
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    res.setHeader('Cache-Control', 'private, no-cache');
    const found = query ? await this.hits(view, query) : { hits: [] };
    if ('problem' in found) return void res.status(400).json({ error: { code: 400, message: found.problem } });
    res.json({
      query,
      // How many pages match in all (the site's insights count a search with none).
      count: found.hits.length,
      items: found.hits.slice(0, 8).map((h) => ({ ...h, excerpt: markedExcerpt(h.excerpt) })),
    });
  }

  /** The hits of every site space this visitor sees, ranked together; hidden pages left out, as from the navigation. */
  private async hits(view: VisitorSite, query: string): Promise<{ hits: SearchHit[] } | { problem: string }> {
    const found = await this.rankedHits(view, query);
    return 'problem' in found
      ? found
      : {
          hits: found.hits.map(({ rank: _rank, source, ...hit }) => ({ ...hit, spaceId: source.location.space.id, pageId: source.pageId })),
        };
  }

  /** The hits, best first, each with where its page is (to read it: `~ask`). */
  private async rankedHits(view: VisitorSite, query: string): Promise<{ hits: RankedHit[] } | { problem: string }> {
    const root = rootOf(view);
    const ranked: RankedHit[] = [];
    try {
      for (const s of this.sites.siteSpaces(view)) {
        const revision = await this.sites.revision(view, s.space);
        const listed = new Set(this.sites.listed(revision).map(({ node }) => node.id));
        const page = await this.search.searchSpace(s.space, query, { limit: 20 });
        for (const hit of page.items) {
          if (!listed.has(hit.pageId)) continue;
          const best = hit.sections[0];
          ranked.push({
            rank: Number(hit.rank),
            title: hit.pageTitle,
            section: best?.title || undefined,
            url: `${root}${s.prefix}${hit.pagePath}${best?.anchor ? `#${best.anchor}` : ''}`,
            where: [s.section?.title, s.space.title, ...hit.ancestors.map((a) => a.title)].filter(Boolean).join(' › '),
            excerpt: best?.excerpt ?? '',
            source: { location: { ...s, rest: '' }, revision, pageId: hit.pageId, pageUrl: `${root}${s.prefix}${hit.pagePath}` },
          });
        }
      }
    } catch (e) {
      if (!(e instanceof InvalidInputError)) throw e;
      return { problem: e.message };
    }
    ranked.sort((a, b) => b.rank - a.rank);
    return { hits: ranked.slice(0, 20) };
  }

  /**
   * `~ask?q=`: a question answered from this site's own pages, as this visitor sees them — the best pages the
   * full-text search finds (at most ASK_SOURCES, hidden pages left out) are the only sources the language model
   * gets, and the answer cites them by their site URLs. Without a model (QUIRE_LLM_URL) nothing is invented:
   * the answer is null, said so, with the pages that match.
   */
  async ask(view: VisitorSite, req: Request, res: Response): Promise<void> {
    const question = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    res.setHeader('Cache-Control', 'private, no-store');
    if (!question) return void res.status(400).json({ error: { code: 400, message: 'q (the question) is required' } });
    if (question.length > 1000) return void res.status(400).json({ error: { code: 400, message: 'q must be at most 1000 characters' } });
    const found = await this.rankedHits(view, question);
    if ('problem' in found) return void res.status(400).json({ error: { code: 400, message: found.problem } });
    const pages: RankedHit[] = [];
    for (const h of found.hits) if (!pages.some((p) => p.source.pageUrl === h.source.pageUrl) && pages.length < ASK_SOURCES) pages.push(h);
    const sources = [];
    for (const p of pages) {
      const stored = await this.sites.document(p.source.location.space, p.source.revision, p.source.pageId);
      const document = stored && this.sites.shown(view, stored);
      const href = this.renderer.hrefs(view, p.source.location, p.source.revision.tree);
      sources.push({ title: p.title, url: p.source.pageUrl, text: document ? documentToMarkdown(document, (ref) => href(ref) ?? '') : '' });
    }
    const listed = sources.map(({ title, url }) => ({ title, url }));
    if (!this.answerer)
      return void res.json({
        question,
        answer: null,
        message: 'No language model is configured for this site: no answer, only the pages that match.',
        citations: [],
        sources: listed,
      });
    if (!sources.length)
      return void res.json({ question, answer: null, message: 'No page of this site matches the question.', citations: [], sources: [] });
    let answer: string;
    try {
      answer = await this.answerer.answer(question, sources);
    } catch {
      return void res.status(502).json({ error: { code: 502, message: 'The language model did not answer' } });
    }
    const citations = citedNumbers(answer, sources.length).map((n) => ({ number: n, ...listed[n - 1] }));
    res.json({ question, answer, citations, sources: listed });
  }
}
