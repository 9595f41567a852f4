import { Injectable } from '@nestjs/common';
import { SpaceLifecycle } from '@app/spaces-and-content';
import { cloneStructure, removeSpaces } from '../domain/site';
import { SiteRepository } from '../domain/site-repository';

/**
 * Sites follow the spaces they show (the content context's SpaceLifecycle port, inside the unit of work
 * that changes the space): a deleted, transferred or purged space leaves every site (its site spaces are
 * removed, defaults move on); a renamed space or a moved main revision moves the version of the sites
 * showing it, so their published structure is rebuilt. A restored space is not put back on sites.
 */
@Injectable()
export class SiteSpaceLifecycle extends SpaceLifecycle {
  constructor(private readonly sites: SiteRepository) {
    super();
  }

  async deleted(spaceId: string): Promise<void> {
    await this.remove([spaceId]);
  }

  async restored(): Promise<void> {}

  async transferred(spaceId: string): Promise<void> {
    await this.remove([spaceId]);
  }

  async purged(spaceIds: string[]): Promise<void> {
    await this.remove(spaceIds);
  }

  async revisionMoved(spaceId: string): Promise<void> {
    await this.sites.touchShowing(spaceId);
  }

  async updated(spaceId: string): Promise<void> {
    await this.sites.touchShowing(spaceId);
  }

  private async remove(spaceIds: string[]): Promise<void> {
    if (spaceIds.length === 0) return;
    const gone = new Set(spaceIds);
    for (const site of await this.sites.showingSpaces(spaceIds)) {
      const structure = cloneStructure(site.structure);
      removeSpaces(structure, gone);
      await this.sites.save(site, { ...site, structure });
    }
  }
}
