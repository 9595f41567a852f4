import { Injectable } from '@nestjs/common';
import { Actor, Page, PageRequest } from '@app/shared-kernel';
import type { PageHit, SpaceHit } from '../domain/content/search-index';
import { ContentAccess } from './content-access';
import { SearchService } from './search.service';
import { SpacesService } from './spaces.service';

/** Search as the caller may run it: the access decision lives here, not in the controller. */
@Injectable()
export class ContentSearch {
  constructor(
    private readonly spaces: SpacesService,
    private readonly search: SearchService,
    private readonly access: ContentAccess,
  ) {}

  /** A live space the caller can read (404 otherwise). */
  async inSpace(
    actor: Actor,
    spaceId: string,
    query: string,
    page: PageRequest,
  ): Promise<{ spaceId: string; page: Page<PageHit & { position: number }> }> {
    const { space } = await this.spaces.getLive(actor, spaceId);
    return { spaceId: space.id, page: await this.search.searchSpace(space, query, page) };
  }

  /** Every space of the organization the caller may read (404 for non-members): no hit, title or count of another. */
  async inOrganization(
    actor: Actor,
    organizationId: string,
    query: string,
    page: PageRequest,
  ): Promise<Page<SpaceHit & { position: number }>> {
    const { spaces } = await this.access.narrowing(organizationId, actor);
    return this.search.searchOrganization(organizationId, query, page, spaces);
  }

  /**
   * These spaces of the organization (a site's), those the caller may read among them: a space closed to them
   * gives no hit, title or count, as in the organization's search (404 for non-members).
   */
  async inSpaces(
    actor: Actor,
    organizationId: string,
    spaceIds: readonly string[],
    query: string,
    page: PageRequest,
  ): Promise<Page<SpaceHit & { position: number }>> {
    const { spaces } = await this.access.narrowing(organizationId, actor);
    const readable =
      spaces === null
        ? spaceIds
        : 'only' in spaces
          ? spaceIds.filter((id) => spaces.only.includes(id))
          : spaceIds.filter((id) => !spaces.except.includes(id));
    return this.search.searchOrganization(organizationId, query, page, { only: readable });
  }
}
