import { Injectable } from '@nestjs/common';
import { decode } from 'rison-node';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import { checkClaims } from '../domain/adaptive';
import * as S from '../domain/site';
import { SiteRepository } from '../domain/site-repository';
import { pathInSite, previewUrl, siteSpacePrefix } from '../domain/site-urls';
import { SitePreviews } from './site-previews';
import { SITE_ROLES, SitesService } from './sites.service';

/** The longest rison string of claims taken. */
const CLAIMS_MAX = 4_096;

export interface PreviewLinkInput {
  siteSpace?: string;
  /** Rison, e.g. `(unsigned:(beta:!t))`: what the previewing visitor claims, checked against the adaptive schema. */
  claims?: string;
  /** A URL of the site (its published URL, or Quire's `/sites/{id}/…`): the page the preview opens on. */
  target?: string;
}

/**
 * Official getSitePublishingPreviewById: a link that opens the site as it is now, for an hour (`urls.preview`,
 * SitePreviews), on a site space's path, a page of the site (`target`), and with the claims of a visitor (as
 * `visitor.…` query parameters: what a preview applies are the schema's unsigned claims). Quire has no draft
 * content, so `draft` changes nothing: the preview shows what the site holds now.
 */
@Injectable()
export class SitePreviewLinks {
  constructor(
    private readonly sitesService: SitesService,
    private readonly sites: SiteRepository,
    private readonly previews: SitePreviews,
  ) {}

  async link(actor: Actor, organizationId: string, siteId: string, input: PreviewLinkInput, origin: string): Promise<string> {
    await this.sitesService.siteRole(organizationId, actor, siteId, SITE_ROLES.read);
    const site = await this.sitesService.found(organizationId, siteId);
    let path = '';
    if (input.target !== undefined) {
      const inSite = pathInSite(input.target, site, origin);
      if (inSite === null) throw new InvalidInputError('target must be a URL of this site (its published URL, or a page below it)');
      path = inSite;
    } else if (input.siteSpace !== undefined) {
      const { node, section } = S.findSiteSpace(site.structure, input.siteSpace);
      path = siteSpacePrefix(section ?? null, node);
    }
    const query = input.claims === undefined ? '' : await this.claimsQuery(site.id, input.claims);
    return `${previewUrl(site.id, origin, this.previews.token(site.id))}${path}${query}`;
  }

  /** The claims as `?visitor.name=value` parameters; 400 when they are not rison, or the schema refuses them. */
  private async claimsQuery(siteId: string, rison: string): Promise<string> {
    if (rison.length > CLAIMS_MAX) throw new InvalidInputError(`claims must be at most ${CLAIMS_MAX} characters`);
    let claims: unknown;
    try {
      claims = decode(rison);
    } catch {
      throw new InvalidInputError('claims must be a rison object, e.g. (unsigned:(beta:!t))');
    }
    const { adaptiveSchema } = await this.sites.settings(siteId);
    const checked = checkClaims(adaptiveSchema?.jsonSchema ?? null, claims);
    const extra = Object.keys(checked).filter((k) => k !== 'unsigned');
    if (extra.length) throw new InvalidInputError(`claims "${extra[0]}" come from a visitor token: a preview takes unsigned claims only`);
    const unsigned = (checked.unsigned ?? {}) as Record<string, unknown>;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(unsigned)) {
      if (typeof value !== 'string' && typeof value !== 'boolean')
        throw new InvalidInputError(`claims.unsigned.${name}: a preview carries strings and booleans only`);
      params.append(`visitor.${name}`, String(value));
    }
    const text = params.toString();
    return text ? `?${text}` : '';
  }
}
