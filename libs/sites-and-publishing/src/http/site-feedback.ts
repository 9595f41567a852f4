import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Links } from '@app/http-kit';
import { renderMessage } from '@app/site-renderer';
import { DomainError } from '@app/shared-kernel';
import { PageAssembler } from '../application/page-assembler';
import { PageFeedbackService, TooMuchFeedback } from '../application/page-feedback.service';
import type { VisitorSite } from '../application/visitor-sites.service';
import { feedbackEnabled, rootOf, SitePageRenderer } from './site-page.renderer';

const STATUS: Partial<Record<DomainError['kind'], number>> = { invalid: 400, 'not-found': 404 };

/**
 * `POST {site}/~feedback`: a visitor's feedback on a page of the site, no account needed. The page is found
 * through the page pipeline (the visitor must be able to open it), on a site space whose customization
 * enables feedback. Two shapes: `page` (its path below the site's root), `rating` and an optional `comment`
 * (the form, and the script's first step: answered with the feedback's `id` and the `key` that adds its
 * comment), or `id`, `key` and `comment` (the script's second step). JSON in, JSON out; the form without the
 * script gets a page in the site's frame.
 */
@Injectable()
export class SiteFeedback {
  constructor(
    private readonly pages: PageAssembler,
    private readonly renderer: SitePageRenderer,
    private readonly feedback: PageFeedbackService,
  ) {}

  async post(view: VisitorSite, req: Request, res: Response, links: Links): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const json = Boolean(req.is('application/json')) || Boolean(req.accepts(['html', 'json']) === 'json');
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const client = req.ip ?? req.socket.remoteAddress ?? '';
    let back = { href: rootOf(view), title: 'Go to the home page' };
    try {
      if (body.id !== undefined || body.key !== undefined) {
        await this.feedback.comment(view.site.id, { id: body.id, key: body.key, comment: body.comment }, client);
        return this.answer(view, res, links, json, 200, { comment: 'added' }, 'Thank you for your feedback.', back);
      }
      if (typeof body.page !== 'string' || body.page.length > 2048 || body.page.includes('\0'))
        throw new FeedbackProblem(400, 'page must be the path of a page of this site');
      const found = await this.pages.find(view, body.page.replace(/^\/+/, ''));
      if (found.kind !== 'page' || found.page.format !== 'html') throw new FeedbackProblem(404, 'No such page on this site');
      back = {
        href: `${rootOf(view)}${found.page.location.prefix}${found.page.page.path}`,
        title: `Back to “${found.page.page.node.title}”`,
      };
      if (!feedbackEnabled(this.renderer.customizationOf(view, found.page.location.siteSpace.id)))
        throw new FeedbackProblem(404, 'This site does not take feedback');
      const given = await this.feedback.give(found.page, { rating: body.rating, comment: body.comment }, client);
      return this.answer(view, res, links, json, 201, { id: given.id, key: given.commentKey }, 'Thank you for your feedback.', back);
    } catch (e) {
      if (e instanceof TooMuchFeedback) {
        res.setHeader('Retry-After', String(e.retryAfterSeconds));
        return this.answer(view, res, links, json, 429, null, e.message, back);
      }
      const status = e instanceof FeedbackProblem ? e.status : e instanceof DomainError ? STATUS[e.kind] : undefined;
      if (status === undefined) throw e;
      return this.answer(view, res, links, json, status, null, (e as Error).message, back);
    }
  }

  private answer(
    view: VisitorSite,
    res: Response,
    links: Links,
    json: boolean,
    status: number,
    value: Record<string, string> | null,
    message: string,
    back: { href: string; title: string },
  ): void {
    if (json) return void res.status(status).json(value ?? { error: { code: status, message } });
    const title = status < 300 ? 'Thank you' : 'Your feedback was not sent';
    res
      .status(status)
      .type('text/html; charset=utf-8')
      .send(renderMessage(this.renderer.emptyFrame(view, links), title, message, back));
  }
}

class FeedbackProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
