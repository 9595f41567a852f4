import { Injectable } from '@nestjs/common';
import type { Actor, Links } from '@app/shared-kernel';

/** Renders the change request a merge revision came from (the official `mergedFrom`). */
export type MergedFromRenderer = (actor: Actor, spaceId: string, changeRequestId: string, links: Links) => Promise<object | null>;

/**
 * Change requests live in the review context, which depends on this one; so that context registers
 * how to render them here at start-up, instead of this context importing it (no cycle).
 */
@Injectable()
export class RevisionOrigins {
  private renderer: MergedFromRenderer | null = null;

  register(renderer: MergedFromRenderer): void {
    this.renderer = renderer;
  }

  async mergedFrom(actor: Actor, spaceId: string, changeRequestId: string | null | undefined, links: Links): Promise<object | null> {
    if (!changeRequestId || !this.renderer) return null;
    return this.renderer(actor, spaceId, changeRequestId, links);
  }
}
