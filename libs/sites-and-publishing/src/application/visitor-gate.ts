import { Injectable } from '@nestjs/common';
import { Clock, InvalidInputError } from '@app/shared-kernel';
import { visitorClaims } from '../domain/adaptive';
import { SiteRepository, VisitorTokens } from '../domain/site-repository';
import { SitePreviews } from './site-previews';
import { narrow, SiteModel, SiteModels } from './site-models';
import { SiteStates } from './site-states';

/** What a visitor presents: a share key, a visitor token, a preview token, claims (each from the URL, a cookie or a parameter). */
export interface VisitorCredentials {
  shareKey?: string;
  token?: string;
  /** A preview token (`urls.preview`): the site as it is now, published or not. */
  preview?: string;
  /** Claims as given (checked against the site's adaptive schema). */
  claims?: unknown;
}

/** How claims the schema refuses are taken: as no claims (a visitor's browser), or as a 400 (an API caller). */
export interface GateOptions {
  /** The organization the caller named (the API): a site of another organization is closed. */
  organizationId?: string;
  strictClaims?: boolean;
}

/** A visitor let in: the model of the version they see, their claims, and what those claims show. */
export interface Admitted {
  model: SiteModel;
  claims: Record<string, unknown>;
  structure: SiteModel['site']['structure'];
  /** The outcome of each condition for these claims: equal outcomes, equal structure. */
  outcomes: string;
  /** Search engines are asked not to index anything but public sites (nor a preview). */
  noindex: boolean;
  /** Let in by a member's preview link. */
  preview: boolean;
  /** The site state this was decided on (SiteStates.stamp): the same stamp, the same decision. */
  stamp: object;
}

export type Passage = ({ kind: 'admitted' } & Admitted) | { kind: 'sign-in'; url: string } | { kind: 'closed' };

/**
 * The one door to a published site, for the HTML site and its machine files, the site's MCP (which reads those
 * routes) and `GET …/published`: the site, its version, whether it is published, its visibility, the share key,
 * the visitor token, a preview token, and the claims. Nothing here asks PostgreSQL once the site's state and
 * model are warm (SiteStates, SiteModels). Every refusal looks alike (`closed`: a 404), except a `visitor-auth`
 * site with a fallback URL, which sends a visitor without a valid token to sign in there.
 */
@Injectable()
export class VisitorGate {
  constructor(
    private readonly states: SiteStates,
    private readonly models: SiteModels,
    private readonly sites: SiteRepository,
    private readonly previews: SitePreviews,
    private readonly tokens: VisitorTokens,
    private readonly clock: Clock,
  ) {}

  async pass(siteId: string, visitor: VisitorCredentials, options: GateOptions = {}): Promise<Passage> {
    const closed = { kind: 'closed' } as const;
    const previewing = !!visitor.preview && this.previews.check(siteId, visitor.preview) !== null;
    const state = await this.states.state(siteId, previewing ? undefined : visitor.shareKey);
    if (!state || (options.organizationId !== undefined && state.organizationId !== options.organizationId)) return closed;
    let signed: Record<string, unknown> | null = null;
    if (!previewing) {
      if (!state.published) return closed;
      if (state.visibility === 'share-link' && !state.keyValid) return closed;
      if (state.visibility === 'visitor-auth') {
        const verified =
          visitor.token && state.visitorAuthKey ? await this.tokens.verify(visitor.token, state.visitorAuthKey, this.clock.now()) : null;
        if (!verified) {
          if (options.organizationId !== undefined) return closed;
          const fallback = (await this.sites.publishingAuth(siteId))?.fallbackURL;
          return fallback && /^https?:\/\//i.test(fallback) ? { kind: 'sign-in', url: fallback } : closed;
        }
        signed = verified;
      }
    }
    const model = await this.models.model(siteId, state.version);
    if (!model) return closed;
    const claims = this.claimsOf(model, visitor.claims, signed, options.strictClaims ?? false);
    return {
      kind: 'admitted',
      model,
      claims,
      ...narrow(model, claims),
      noindex: previewing || state.visibility !== 'public',
      preview: previewing,
      stamp: state.stamp,
    };
  }

  private claimsOf(model: SiteModel, given: unknown, signed: Record<string, unknown> | null, strict: boolean): Record<string, unknown> {
    try {
      return visitorClaims(model.schema, given ?? {}, signed);
    } catch (e) {
      // Claims the schema refuses are no claims for a visitor's browser (not an error page); an API caller is told.
      if (strict || !(e instanceof InvalidInputError)) throw e;
      return visitorClaims(model.schema, {}, signed);
    }
  }
}
