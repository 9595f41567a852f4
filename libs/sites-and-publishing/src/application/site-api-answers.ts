import { Inject, Injectable, Optional } from '@nestjs/common';
import { documentToMarkdown } from '@app/content-model';
import { Actor, InvalidInputError, NotFoundError, pageRequest } from '@app/shared-kernel';
import { ContentSearch, ContentService, SpacesService } from '@app/spaces-and-content';
import type { SiteSearchBody } from '../domain/site-search-scope';
import { AnswerSource, citedNumbers, SiteAnswerer } from './site-answers';
import { SitesService } from './sites.service';

/** How many of the best pages an answer is made from (as `~ask`). */
const ANSWER_SOURCES = 5;

/** A page an answer was made from (the official `SearchAIAnswerSourcePage`). */
export interface AnswerPageSource {
  space: string;
  page: string;
  revision: string;
  title: string;
}

/**
 * The official `streamAskInSite`'s answer: from the pages the site's search finds for the question in the scope
 * asked (among the spaces the caller may read), the language model's answer citing them; without a model, or
 * without a page, no answer is invented: `answer` is null and `message` says why, with the pages that match.
 */
export interface SiteApiAnswer {
  answer: string | null;
  message: string | null;
  sources: AnswerPageSource[];
  /** The model was asked and did not answer (the caller answers 502). */
  failed?: true;
}

/** Answers for members asking through the API (`POST /orgs/{id}/sites/{siteId}/ask`), as `~ask` answers visitors. */
@Injectable()
export class SiteApiAnswers {
  constructor(
    private readonly sites: SitesService,
    private readonly search: ContentSearch,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    @Optional() @Inject(SiteAnswerer) private readonly answerer: SiteAnswerer | null,
  ) {}

  async ask(actor: Actor, organizationId: string, siteId: string, question: string, scope: SiteSearchBody): Promise<SiteApiAnswer> {
    if (!question.trim()) throw new InvalidInputError('question: give a question, not only spaces');
    const spaceIds = await this.sites.searchedSpaces(actor, organizationId, siteId, scope);
    const found = await this.search.inSpaces(actor, organizationId, spaceIds, question, pageRequest(undefined, 20));
    const best = found.items
      .flatMap((s) => s.pages.map((p) => ({ space: s.spaceId, page: p.pageId, title: p.pageTitle, rank: Number(p.rank) })))
      .sort((a, b) => b.rank - a.rank)
      .slice(0, ANSWER_SOURCES);
    const sources: AnswerPageSource[] = [];
    const texts: AnswerSource[] = [];
    for (const hit of best) {
      const { space } = await this.spaces.getLive(actor, hit.space);
      // The index may still name a page the current content no longer has: it is no source.
      const found = await this.content.page(space, space.revision, hit.page).catch((e: unknown) => {
        if (e instanceof NotFoundError) return null;
        throw e;
      });
      if (!found) continue;
      const { document } = found;
      sources.push({ space: space.id, page: hit.page, revision: space.revision, title: hit.title });
      texts.push({ title: hit.title, url: `${space.title} › ${hit.title}`, text: document ? documentToMarkdown(document, () => '') : '' });
    }
    if (!this.answerer)
      return { answer: null, message: 'No language model is configured for this site: no answer, only the pages that match.', sources };
    if (!sources.length) return { answer: null, message: 'No page of this site matches the question.', sources };
    let answer: string;
    try {
      answer = await this.answerer.answer(question, texts);
    } catch {
      return { answer: null, message: 'The language model did not answer', sources, failed: true };
    }
    // The pages the answer cites, in the order it cites them; none cited: all it was given.
    const cited = citedNumbers(answer, sources.length).map((n) => sources[n - 1]);
    return { answer, message: null, sources: cited.length ? cited : sources };
  }
}
