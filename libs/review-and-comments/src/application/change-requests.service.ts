import { Injectable } from '@nestjs/common';
import { Actor, Clock, ConflictError, ForbiddenError, IdGenerator, NotFoundError, Page, PageRequest, PreconditionError, Role } from '@app/shared-kernel';
import { ChangeOutcome, ContentChangeInput, ContentService, FileNode, Space, SpacesService, spacePermissions } from '@app/spaces-and-content';
import { applyStatus, baseOf, ChangeRequest, ChangeRequestRepository, ChangeRequestStatus, isOutdated, requireWritable, SUBJECT_MAX } from '../domain/change-request';

export interface ChangeRequestView {
  changeRequest: ChangeRequest;
  space: Space;
  role: Role;
}

/** How many times a content write is retried when another write moved the change request meanwhile. */
const CAS_ATTEMPTS = 20;

/** Change requests: a branch of a space's content that is edited, updated from main, and merged. */
@Injectable()
export class ChangeRequestsService {
  constructor(
    private readonly changeRequests: ChangeRequestRepository,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private async space(actor: Actor, spaceId: string): Promise<{ space: Space; role: Role }> {
    const view = await this.spaces.get(actor, spaceId);
    if (view.space.deletedAt) throw new NotFoundError('Space', spaceId);
    return view;
  }

  async view(actor: Actor, spaceId: string, ref: string): Promise<ChangeRequestView> {
    const { space, role } = await this.space(actor, spaceId);
    const changeRequest = await this.changeRequests.find(space.id, ref);
    if (!changeRequest) throw new NotFoundError('Change request', ref);
    return { changeRequest, space, role };
  }

  outdated(v: ChangeRequestView): boolean {
    return isOutdated(v.changeRequest, v.space.revision);
  }

  async list(
    actor: Actor,
    spaceId: string,
    filter: { status?: ChangeRequestStatus; creator?: string; contributor?: string; requestedReviewer?: string; conversationsIssuesCluster?: string },
    page: PageRequest,
  ) {
    const { space, role } = await this.space(actor, spaceId);
    // Review requests and cluster links do not exist yet, so those filters match no change request.
    if (filter.requestedReviewer !== undefined || filter.conversationsIssuesCluster !== undefined) return { items: [], count: 0 } as Page<ChangeRequestView>;
    const result = await this.changeRequests.list(space.id, { status: filter.status ?? 'open', creator: filter.creator, contributor: filter.contributor }, page);
    return { ...result, items: result.items.map((changeRequest) => ({ changeRequest, space, role })) } as Page<ChangeRequestView>;
  }

  private requireEdit(role: Role): void {
    if (!spacePermissions(role).edit) throw new ForbiddenError('Editing content needs the "edit" role on the space');
  }

  private async refreshCounters(spaceId: string): Promise<void> {
    const c = await this.changeRequests.counts(spaceId);
    await this.content.setChangeRequestCounters(spaceId, { changeRequests: c.total, changeRequestsOpen: c.open, changeRequestsDraft: c.draft });
  }

  async create(actor: Actor, spaceId: string, input: { subject?: string }): Promise<ChangeRequestView> {
    const { space, role } = await this.space(actor, spaceId);
    this.requireEdit(role);
    const now = this.clock.now();
    const changeRequest = await this.changeRequests.insert({
      id: this.ids.next(),
      organizationId: space.organizationId,
      spaceId: space.id,
      status: 'open',
      subject: (input.subject ?? '').slice(0, SUBJECT_MAX),
      description: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      mergedBy: null,
      mergedAt: null,
      revision: space.revision,
      revisionInitial: space.revision,
      revisionMergedAncestor: null,
      revisionMerged: null,
      contributors: [],
    });
    await this.refreshCounters(space.id);
    return { changeRequest, space: (await this.spaces.get(actor, spaceId)).space, role };
  }

  async update(actor: Actor, spaceId: string, ref: string, patch: { subject?: string; description?: object | null; status?: ChangeRequestStatus }): Promise<ChangeRequestView> {
    const v = await this.view(actor, spaceId, ref);
    this.requireEdit(v.role);
    const next: ChangeRequest = { ...v.changeRequest, updatedAt: this.clock.now() };
    if (patch.subject !== undefined) next.subject = patch.subject;
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.status !== undefined) next.status = applyStatus(v.changeRequest, patch.status);
    await this.changeRequests.updateFields(next);
    if (patch.status !== undefined) await this.refreshCounters(v.space.id);
    return { ...v, changeRequest: next, space: (await this.spaces.get(actor, spaceId)).space };
  }

  /** updateChangeRequestContent: one atomic batch → one new head revision (or nothing, with a 400 naming the change). */
  async writeContent(actor: Actor, spaceId: string, ref: string, changes: ContentChangeInput[]): Promise<{ view: ChangeRequestView; outcomes: ChangeOutcome[]; insertedFiles: FileNode[] }> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const v = await this.view(actor, spaceId, ref);
      this.requireEdit(v.role);
      requireWritable(v.changeRequest);
      if (v.space.editMode === 'locked') throw new PreconditionError('The space is locked (editMode: locked): edits are refused');
      const cr = v.changeRequest;
      const { revision, outcomes, insertedFiles } = await this.content.commitChanges(v.space, cr.revision, changes, actor.userId, baseOf(cr));
      const now = this.clock.now();
      if (await this.changeRequests.compareAndSetRevision(cr.id, cr.revision, revision.id, { contributor: actor.userId, at: now })) {
        const updated: ChangeRequest = { ...cr, revision: revision.id, updatedAt: now, contributors: cr.contributors.includes(actor.userId) ? cr.contributors : [...cr.contributors, actor.userId] };
        return { view: { ...v, changeRequest: updated }, outcomes, insertedFiles };
      }
    }
    throw new ConflictError('The change request changed too often while writing; try again');
  }

  /** Three-way merge into main. A true conflict is a 409 listing the pages; nothing is written then. */
  async merge(actor: Actor, spaceId: string, ref: string): Promise<{ revision: string; result: 'merge' }> {
    const v = await this.view(actor, spaceId, ref);
    if (!spacePermissions(v.role).merge) throw new ForbiddenError('Merging needs the "edit" role on the space');
    requireWritable(v.changeRequest);
    const cr = v.changeRequest;
    const outcome = await this.content.mergeIntoSpace(v.space.id, baseOf(cr), cr.revision, actor.userId, cr.id);
    if (!outcome.ok) throw new ConflictError(`Change request #${cr.number} conflicts with the space's content`, { conflicts: outcome.conflicts });
    if (!(await this.changeRequests.markMerged(cr.id, outcome.revision!.id, actor.userId, this.clock.now()))) {
      throw new ConflictError(`Change request #${cr.number} was merged or closed meanwhile`);
    }
    await this.refreshCounters(v.space.id);
    return { revision: outcome.revision!.id, result: 'merge' };
  }

  /** Brings main into the change request with the same three-way merge. */
  async updateFromMain(actor: Actor, spaceId: string, ref: string): Promise<{ revision: string; result: 'update' }> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const v = await this.view(actor, spaceId, ref);
      this.requireEdit(v.role);
      requireWritable(v.changeRequest);
      const cr = v.changeRequest;
      const main = v.space.revision;
      if (main === baseOf(cr)) return { revision: cr.revision, result: 'update' };
      let revisionId: string;
      if (cr.revision === baseOf(cr)) revisionId = main;
      else {
        const merged = await this.content.merge(v.space, { base: baseOf(cr), ours: cr.revision, theirs: main });
        if (!merged.ok) throw new ConflictError(`Change request #${cr.number} conflicts with the space's content`, { conflicts: merged.conflicts });
        revisionId = (await this.content.storeRevision(v.space, merged.tree, merged.files, merged.documents, [cr.revision, main], 'update', actor.userId)).id;
      }
      if (await this.changeRequests.compareAndSetRevision(cr.id, cr.revision, revisionId, { revisionMergedAncestor: main, at: this.clock.now() })) {
        return { revision: revisionId, result: 'update' };
      }
    }
    throw new ConflictError('The change request changed too often while updating; try again');
  }
}
