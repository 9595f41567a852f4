import { Injectable } from '@nestjs/common';
import { BoundedMap } from '@app/shared-kernel';
import { SpacesService, type Space } from '@app/spaces-and-content';
import { AdaptiveJsonSchema, Condition } from '../domain/adaptive';
import { CustomizationOverride, CustomizationSettings, defaultCustomization } from '../domain/customization';
import { SiteRedirect, SiteRedirects } from '../domain/redirects';
import { conditionsOf, Site, spaceIdsOf, Structure, visibleStructure } from '../domain/site';
import { SiteRepository } from '../domain/site-repository';

/**
 * Everything a published read of one site version needs, the same for every visitor and caller: immutable
 * once built, kept per version (every change to what it holds moves the site's version).
 */
export interface SiteModel {
  site: Site;
  /** The live spaces the site shows, by id, in structure order (as visitors get them, whatever their own permissions). */
  spaces: Map<string, Space>;
  customization: { settings: CustomizationSettings; updatedAt?: Date };
  /** Each site space's customization override, by site space id. */
  overrides: Record<string, CustomizationOverride>;
  /** The site's live redirects. */
  redirects: SiteRedirect[];
  schema: AdaptiveJsonSchema | null;
  /** Parsed conditions by source, in structure order. */
  conditions: Map<string, Condition>;
}

/** What one visitor's claims make of a model: the structure they see, and the outcome of each condition ('' without adaptive content). */
export interface Narrowed {
  structure: Structure;
  outcomes: string;
}

/** The site's structure after these claims (adaptive content only: otherwise all of it). */
export function narrow(model: SiteModel, claims: Record<string, unknown>): Narrowed {
  if (!model.site.adaptiveContent) return { structure: model.site.structure, outcomes: '' };
  const shown = new Map([...model.conditions].map(([source, c]) => [source, c.test(claims)]));
  return {
    structure: visibleStructure(model.site.structure, (c) => shown.get(c) === true),
    outcomes: [...shown.values()].map((ok) => (ok ? '1' : '0')).join(''),
  };
}

const MODELS_MAX = 500;

/** The model of each site version, built once per process (the visitor site and `GET …/published` share it). */
@Injectable()
export class SiteModels {
  private readonly models = new BoundedMap<string, Promise<SiteModel | null>>(MODELS_MAX);

  constructor(
    private readonly sites: SiteRepository,
    private readonly spaces: SpacesService,
    private readonly redirects: SiteRedirects,
  ) {}

  /** The model at `version` (or a newer one, read meanwhile: still consistent); null when the site is gone. */
  model(siteId: string, version: number): Promise<SiteModel | null> {
    const key = `${siteId} ${version}`;
    let model = this.models.get(key);
    if (!model) {
      const built = this.build(siteId);
      model = built;
      this.models.set(key, built);
      built.then(
        (m) => (!m || m.site.version !== version) && this.models.get(key) === built && this.models.delete(key),
        () => this.models.get(key) === built && this.models.delete(key),
      );
    }
    return model;
  }

  private async build(siteId: string): Promise<SiteModel | null> {
    const site = await this.sites.findById(siteId);
    if (!site) return null;
    const ids = spaceIdsOf(site.structure);
    const [live, settings, redirects] = await Promise.all([
      this.spaces.liveIn(site.organizationId, ids),
      this.sites.settings(site.id),
      this.redirects.live(site.id),
    ]);
    const byId = new Map(live.map((s) => [s.id, s]));
    return {
      site,
      spaces: new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : []))),
      customization: settings.customization ?? { settings: defaultCustomization() },
      overrides: settings.siteSpaceCustomizations,
      redirects,
      schema: settings.adaptiveSchema?.jsonSchema ?? null,
      conditions: new Map(conditionsOf(site.structure).map((c) => [c, Condition.parse(c)])),
    };
  }
}
