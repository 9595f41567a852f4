import { SitePreviews } from '../application/site-previews';
import { Injectable } from '@nestjs/common';
import { Links, ReadCacheSettings, RenderedJson } from '@app/http-kit';
import type { PublishedView } from '../application/published-sites.service';
import { PublishedSiteDto } from './published-site.dto';
import { StructurePresenter } from './structure.presenter';
import { toSiteDto } from './site.dto';

/**
 * The published site as JSON (`getPublishedContentSite`): built from what the visitor may see and kept
 * by its key (site, version and the outcome of each condition) with the origins of its URLs. A quarter of
 * QUIRE_READ_CACHE_MB; a hit sends the bytes as they are.
 */
@Injectable()
export class PublishedSitePresenter {
  private readonly rendered: RenderedJson;

  constructor(
    settings: ReadCacheSettings,
    private readonly previews: SitePreviews,
  ) {
    this.rendered = new RenderedJson(Math.floor(settings.maxBytes / 4), 'published-sites');
  }

  bytes(view: PublishedView, links: Links): Promise<Buffer> {
    // The preview link in the body changes every few minutes: it is part of the key.
    const preview = this.previews.token(view.model.site.id);
    return this.rendered.get(`${view.key} ${links.origin} ${links.appOrigin} ${preview}`, () => this.dto(view, links));
  }

  private dto(view: PublishedView, links: Links): PublishedSiteDto {
    const { model } = view;
    // The site as visitors see it, narrowed to the spaces the caller may read; the permissions are the caller's own.
    const spaces = new Map(
      [...model.spaces].flatMap(([id, space]) => {
        const role = view.spaceRoles.get(id);
        return role ? [[id, { space, role }] as const] : [];
      }),
    );
    const presenter = new StructurePresenter(model.site, spaces, links);
    return {
      object: 'published-content-site',
      site: toSiteDto(model.site, view.role, links, this.previews),
      structure: presenter.structure(view.structure),
      customizations: {
        site: {
          title: model.site.title,
          ...model.customization.settings,
          ...(model.customization.updatedAt ? { updatedAt: model.customization.updatedAt.toISOString() } : {}),
        },
        siteSpaces: {},
      },
      scripts: [],
    };
  }
}
