import { Injectable } from '@nestjs/common';
import { sections, type JsonDocument, type PageTree } from '@app/content-model';
import { ContentService } from '@app/spaces-and-content';
import { SiteModel, SiteModels } from './site-models';
import { SiteRepository } from '../domain/site-repository';

/** A page of a site's spaces as text: what another context reads of the published docs (site insights' topics). */
export interface SitePageText {
  space: string;
  page: string;
  title: string;
  /**
   * The title of the top-level entry of the table of contents it sits under (itself when it is one with pages
   * below), or null (a top-level page alone).
   */
  group: string | null;
  /** Its passages (`pagePassages`). */
  passages: PagePassage[];
}

/** A passage of a page: its text before the first heading (under the page's title), or a section. */
export interface PagePassage {
  title: string;
  text: string;
}

/** At most this many characters of a page's text are read, in at most this many passages (in order). */
export const PAGE_TEXT_MAX = 200_000;
export const PAGE_PASSAGES_MAX = 500;
const DOCUMENTS_CHUNK = 200;

/**
 * A page's passages, cut as the site's search cuts it (content-model `sections`: a heading starts one;
 * conditional content left out): the first under the page's title, each other under "page title — heading";
 * at most `PAGE_TEXT_MAX` characters of text in all, in at most `PAGE_PASSAGES_MAX` passages.
 */
export function pagePassages(title: string, document: JsonDocument | null): PagePassage[] {
  let left = PAGE_TEXT_MAX;
  const passages: PagePassage[] = [];
  for (const s of sections(title, document)) {
    if (left <= 0 || passages.length >= PAGE_PASSAGES_MAX) break;
    const text = s.body.slice(0, left);
    left -= text.length;
    passages.push({ title: s.index === 0 ? title : `${title} — ${s.title}`, text });
  }
  return passages;
}

const keyOf = (model: SiteModel) =>
  `${model.site.id} ${model.site.version} ${[...model.spaces.values()].map((s) => `${s.id}:${s.revision}`).join(',')}`;

/**
 * The pages of the spaces a site shows, in their current revisions, as passages of text (hidden pages too: they
 * are published, and what visitors look for may be there). `key` names what they were read from (the site's
 * version and each space's revision): the same key, the same pages.
 */
@Injectable()
export class SitePageTexts {
  constructor(
    private readonly sites: SiteRepository,
    private readonly models: SiteModels,
    private readonly content: ContentService,
  ) {}

  /** The site's key alone (cheap: no document read), or null when the site is gone. */
  async key(siteId: string): Promise<string | null> {
    const model = await this.model(siteId);
    return model && keyOf(model);
  }

  async pages(siteId: string): Promise<{ key: string; pages: SitePageText[] } | null> {
    const model = await this.model(siteId);
    if (!model) return null;
    const pages: SitePageText[] = [];
    for (const space of model.spaces.values()) {
      const revision = await this.content.revision(space.id, space.revision);
      const found: { node: PageTree[number]; group: string | null }[] = [];
      const walk = (nodes: PageTree, group: string | null) => {
        for (const node of nodes) {
          const inGroup = group ?? (nodes === revision.tree && node.pages.length ? node.title : null);
          if (node.type === 'document') found.push({ node, group: inGroup });
          walk(node.pages, inGroup);
        }
      };
      walk(revision.tree, null);
      // The bodies a chunk at a time: a large space's documents are never all in memory at once (their texts are).
      for (let at = 0; at < found.length; at += DOCUMENTS_CHUNK) {
        const chunk = found.slice(at, at + DOCUMENTS_CHUNK);
        const documents = await this.content.documents(
          space.organizationId,
          chunk.flatMap(({ node }) => (node.document ? [node.document] : [])),
        );
        for (const { node, group } of chunk) {
          const document = (node.document && documents.get(node.document)) || null;
          pages.push({ space: space.id, page: node.id, title: node.title, group, passages: pagePassages(node.title, document) });
        }
      }
    }
    return { key: keyOf(model), pages };
  }

  private async model(siteId: string) {
    const site = await this.sites.findById(siteId);
    return site && this.models.model(siteId, site.version);
  }
}
