import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvent, DomainEvents } from '@app/shared-kernel';
import type { SpaceEventType, SpaceStateEventType } from '@app/spaces-and-content';
import { cloneStructure, removeSpaces } from '../domain/site';
import { SiteRepository } from '../domain/site-repository';

/**
 * Sites follow the spaces they show. A recorder of the space events, in the unit of work that changes the
 * space: a deleted, transferred or purged space leaves every site (its site spaces are removed, defaults
 * move on); a renamed space or a moved main revision moves the version of the sites showing it, so their
 * published structure is rebuilt. A restored space is not put back on sites.
 */
@Injectable()
export class SitesFollowSpaces implements OnModuleInit {
  constructor(
    private readonly sites: SiteRepository,
    private readonly bus: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.bus.addRecorder((event) => this.follow(event));
  }

  async follow(event: DomainEvent): Promise<void> {
    const type = event.type as SpaceEventType | SpaceStateEventType;
    switch (type) {
      case 'space.deleted':
      case 'space.transferred':
        await this.remove([event.data.spaceId as string]);
        return;
      case 'space.purged':
        await this.remove(event.data.spaceIds as string[]);
        return;
      case 'space.updated':
      case 'space.content-moved':
        await this.sites.touchShowing(event.data.spaceId as string);
        return;
      default:
        return;
    }
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
