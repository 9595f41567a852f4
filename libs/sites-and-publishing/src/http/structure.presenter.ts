import { Links } from '@app/http-kit';
import { SpaceView } from '@app/spaces-and-content';
import { Role } from '@app/shared-kernel';
import { ExternalLinkNode, GroupNode, SectionNode, Site, SiteSpaceNode, Structure, TopItem } from '../domain/site';
import { publishedRoot, sectionPrefix, siteSpacePrefix } from '../domain/site-urls';
import { toSpaceDto } from '@app/wire';
import { SiteExternalLinkDto, SiteSpaceDto, SiteSectionDto, SiteSectionGroupDto, SiteStructureDto } from './site-structure.dto';

/** Builds structure DTOs for one site: URLs from where the site is published, spaces from the views given. */
export class StructurePresenter {
  private readonly base: string | undefined;

  constructor(
    private readonly site: Site,
    /** The spaces with the caller's role on each (null: closed to them, all permissions false). */
    private readonly spaces: Map<string, { space: SpaceView['space']; role: Role | null }>,
    private readonly links: Links,
    /** The role every space is presented with instead (`read` for what visitors see). */
    private readonly role?: Role,
  ) {
    this.base = site.published ? publishedRoot(site, links.origin) : undefined;
  }

  siteSpace(node: SiteSpaceNode, section?: SectionNode): SiteSpaceDto | null {
    const view = this.spaces.get(node.spaceId);
    if (!view) return null; // the space left meanwhile (SitesFollowSpaces removes the site space)
    const dto: SiteSpaceDto = {
      object: 'site-space',
      id: node.id,
      path: node.path,
      space: toSpaceDto(view.space, this.role ?? view.role, this.links),
      title: view.space.title,
      default: node.default,
      draft: false,
      hasAdvancedCustomizationFeature: false,
      urls: {},
    };
    if (section) dto.section = section.id;
    if (node.condition !== undefined) dto.condition = node.condition;
    if (this.base !== undefined) dto.urls.published = `${this.base}${siteSpacePrefix(section ?? null, node)}`;
    return dto;
  }

  private sectionUrl(section: SectionNode): string | undefined {
    return this.base === undefined ? undefined : `${this.base}${sectionPrefix(section)}`;
  }

  section(section: SectionNode, group?: GroupNode): SiteSectionDto {
    const dto: SiteSectionDto = {
      object: 'site-section',
      id: section.id,
      title: section.title,
      default: section.default,
      draft: false,
      path: section.path,
      siteSpaces: section.siteSpaces.map((s) => this.siteSpace(s, section)).filter((s): s is SiteSpaceDto => s !== null),
      urls: {},
    };
    if (section.description !== undefined) dto.description = section.description;
    if (section.condition !== undefined) dto.condition = section.condition;
    if (group) dto.sectionGroup = group.id;
    if (section.icon !== undefined) dto.icon = section.icon;
    const url = this.sectionUrl(section);
    if (url !== undefined) dto.urls.published = url;
    return dto;
  }

  externalLink(link: ExternalLinkNode, group?: GroupNode): SiteExternalLinkDto {
    const dto: SiteExternalLinkDto = { object: 'site-external-link', id: link.id, title: link.title, url: link.url, draft: false };
    if (link.description !== undefined) dto.description = link.description;
    if (link.icon !== undefined) dto.icon = link.icon;
    if (link.condition !== undefined) dto.condition = link.condition;
    if (group) dto.sectionGroup = group.id;
    return dto;
  }

  group(group: GroupNode, parent?: GroupNode): SiteSectionGroupDto {
    const children = group.children.map((c) => this.item(c, group));
    const dto: SiteSectionGroupDto = {
      object: 'site-section-group',
      id: group.id,
      title: group.title,
      draft: false,
      sections: children.filter((c): c is SiteSectionDto => c.object === 'site-section'),
      children,
    };
    if (parent) dto.sectionGroup = parent.id;
    if (group.icon !== undefined) dto.icon = group.icon;
    return dto;
  }

  item(item: TopItem, parent?: GroupNode): SiteSectionDto | SiteSectionGroupDto | SiteExternalLinkDto {
    if (item.kind === 'external-link') return this.externalLink(item, parent);
    return item.kind === 'section' ? this.section(item, parent) : this.group(item, parent);
  }

  structure(structure: Structure): SiteStructureDto {
    if (structure.items.length > 0) return { type: 'sections', structure: structure.items.map((i) => this.item(i)) };
    return {
      type: 'siteSpaces',
      structure: structure.siteSpaces.map((s) => this.siteSpace(s)).filter((s): s is SiteSpaceDto => s !== null),
    };
  }
}
