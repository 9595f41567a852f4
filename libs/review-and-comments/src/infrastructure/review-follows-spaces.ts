import { Injectable, OnModuleInit } from '@nestjs/common';
import { Db } from '@app/persistence';
import { DomainEvent, DomainEvents } from '@app/shared-kernel';
import type { SpaceEventType, SpaceStateEventType } from '@app/spaces-and-content';

/**
 * Change requests, comments and reviews follow their space. A recorder of the space events: it runs in
 * the unit of work that changes the space, so both commit together or neither does. A deleted space's
 * change requests leave the organization-wide list (`space_live`) and come back on restore; a transfer
 * takes them, their comments and reviews to the new organization; a purge removes them (reviews,
 * requests, replies and reactions go with them by foreign key).
 */
@Injectable()
export class ReviewFollowsSpaces implements OnModuleInit {
  constructor(
    private readonly db: Db,
    private readonly bus: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.bus.addRecorder((event) => this.follow(event));
  }

  async follow(event: DomainEvent): Promise<void> {
    const type = event.type as SpaceEventType | SpaceStateEventType;
    const spaceId = event.data.spaceId as string;
    switch (type) {
      case 'space.deleted':
        await this.db.query('UPDATE change_requests SET space_live = false WHERE space_id = $1', [spaceId]);
        return;
      case 'space.restored':
        await this.db.query('UPDATE change_requests SET space_live = true WHERE space_id = $1', [spaceId]);
        return;
      case 'space.transferred':
        // Rows leave the old organization's list: its cached lists must not survive that.
        await this.mark(spaceId);
        for (const table of ['change_requests', 'comments', 'change_request_reviews'])
          await this.db.query(`UPDATE ${table} SET organization_id = $2 WHERE space_id = $1`, [spaceId, event.data.toOrganizationId]);
        return;
      case 'space.content-moved':
        // Whether each change request of the space is `outdated` may have changed. Marked, not written on
        // the rows: concurrent merges into the space hold those rows (a write would deadlock).
        await this.mark(spaceId);
        return;
      case 'space.purged': {
        const spaceIds = event.data.spaceIds as string[];
        await this.db.query('DELETE FROM comments WHERE space_id = ANY($1::text[])', [spaceIds]);
        await this.db.query('DELETE FROM change_requests WHERE space_id = ANY($1::text[])', [spaceIds]);
        return;
      }
      default:
        // Other events (a space's own fields, other contexts' events): nothing is copied here.
        return;
    }
  }

  /** A stamp for the organization whose change requests live in the space (no row lock taken). */
  private async mark(spaceId: string): Promise<void> {
    await this.db.query(
      'INSERT INTO change_request_list_marks (organization_id) SELECT DISTINCT organization_id FROM change_requests WHERE space_id = $1',
      [spaceId],
    );
  }
}
