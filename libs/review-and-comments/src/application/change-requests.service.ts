import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConversationsService } from '@app/conversations';
import {
  Actor,
  Clock,
  ConflictError,
  ForbiddenError,
  IdGenerator,
  KeyedMutex,
  NotFoundError,
  Page,
  PageRequest,
  PreconditionError,
  Role,
  UnitOfWork,
  untilWritten,
} from '@app/shared-kernel';
import { OrganizationsService } from '@app/organizations-and-teams';
import { spacePermissions, Access } from '@app/access';
import { ContentChangeInput, ContentService, Space, SpacesService, type RevisionEditor, type RevisionGit } from '@app/spaces-and-content';
import { ChangeOutcome, checkDocumentInput, documentText, FileNode, JsonDocument, type ApplyContext } from '@app/content-model';
import { MergeRuleInput, ReviewRepository, unmetMergeRule } from '../domain/review';
import { ReviewEvents } from './review-events';
import {
  applyStatus,
  baseOf,
  CHANGE_REQUEST_DESCRIPTION_MAX,
  ChangeRequest,
  ChangeRequestRepository,
  ChangeRequestStatus,
  isOutdated,
  requireWritable,
  SUBJECT_MAX,
} from '../domain/change-request';

export interface ChangeRequestView {
  changeRequest: ChangeRequest;
  space: Space;
  role: Role;
}

/** Change requests: a branch of a space's content that is edited, updated from main, and merged. */
@Injectable()
export class ChangeRequestsService {
  constructor(
    private readonly changeRequests: ChangeRequestRepository,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly reviews: ReviewRepository,
    private readonly organizations: OrganizationsService,
    private readonly access: Access,
    private readonly events: ReviewEvents,
    private readonly clusters: ConversationsService,
  ) {}

  private statusChanged(actor: Actor, cr: ChangeRequest, from: ChangeRequestStatus | null, to: ChangeRequestStatus): void {
    const data = { spaceId: cr.spaceId, changeRequestId: cr.id, number: cr.number, from, to };
    this.events.publish(from === null ? 'change-request.created' : 'change-request.status-changed', cr.organizationId, actor.userId, data);
  }

  /** The merge rules that apply to the space: its own, or the organization's when it inherits them. */
  private async mergeRules(actor: Actor, space: Space): Promise<MergeRuleInput[]> {
    const own = space.mergeRules;
    const rules = own.type === 'inherit' ? (await this.organizations.get(actor, space.organizationId)).organization.mergeRules : own;
    return rules.type === 'rules' ? rules.rules : [];
  }

  /** Refuses the merge (412, naming the rule) when a merge rule of the space is not met. */
  private async checkMergeRules(actor: Actor, v: ChangeRequestView): Promise<void> {
    const rules = await this.mergeRules(actor, v.space);
    if (rules.length === 0) return;
    const cr = v.changeRequest;
    const description = cr.description as Partial<JsonDocument> | null;
    const unmet = unmetMergeRule(rules, {
      reviews: await this.reviews.current(cr.id),
      author: cr.createdBy,
      merger: actor.userId,
      outdated: isOutdated(cr, v.space.revision),
      subject: cr.subject,
      hasDescription: !!description && Array.isArray(description.nodes) && documentText(description as JsonDocument).length > 0,
    });
    if (unmet) throw new PreconditionError(unmet);
  }

  /** Writers of one change request, in this process (see writeChangeRequest). */
  private readonly writers = new KeyedMutex();

  private space(actor: Actor, spaceId: string): Promise<{ space: Space; role: Role }> {
    return this.spaces.getLive(actor, spaceId);
  }

  async view(actor: Actor, spaceId: string, ref: string): Promise<ChangeRequestView> {
    const { space, role } = await this.space(actor, spaceId);
    const changeRequest = await this.changeRequests.find(space.id, ref);
    if (!changeRequest) throw new NotFoundError('Change request', ref);
    return { changeRequest, space, role };
  }

  /**
   * Who wrote content into the change request (the official contributors with `actionType: edit`): the authors
   * of its own edit revisions — on its head's line since it started, not on main's line where it was last
   * brought up to date.
   */
  async editors(actor: Actor, spaceId: string, ref: string): Promise<RevisionEditor[]> {
    const { changeRequest: cr, space } = await this.view(actor, spaceId, ref);
    return this.content.editors(space, cr.revision, baseOf(cr), cr.revisionInitial);
  }

  outdated(v: ChangeRequestView): boolean {
    return isOutdated(v.changeRequest, v.space.revision);
  }

  async list(
    actor: Actor,
    spaceId: string,
    filter: {
      status?: ChangeRequestStatus;
      creator?: string;
      contributor?: string;
      requestedReviewer?: string;
      conversationsIssuesCluster?: string;
      /** A filter on links Quire does not have (site topics): none match. */
      unlinked?: boolean;
      orderBy?: 'updatedAt' | 'createdAt';
    },
    page: PageRequest,
  ) {
    const { space, role } = await this.space(actor, spaceId);
    if (filter.unlinked) return { items: [], count: 0 } as Page<ChangeRequestView>;
    const result = await this.changeRequests.list(
      space.id,
      {
        status: filter.status ?? 'open',
        creator: filter.creator,
        contributor: filter.contributor,
        requestedReviewer: filter.requestedReviewer,
        conversationsIssuesCluster: filter.conversationsIssuesCluster,
        orderBy: filter.orderBy,
      },
      page,
    );
    return { ...result, items: result.items.map((changeRequest) => ({ changeRequest, space, role })) } as Page<ChangeRequestView>;
  }

  /**
   * What the organization's change request list depends on (404 for non-members): its version and which
   * spaces the caller may read. Members of an organization where nothing is restricted share one answer;
   * a guest's, or a member's with restricted spaces closed to them, is keyed by those spaces.
   */
  async organizationListKey(actor: Actor, organizationId: string): Promise<string> {
    const readable = await this.spaces.readable(actor, organizationId);
    const narrowed = readable === null ? 'all' : createHash('sha256').update(JSON.stringify(readable)).digest('base64url');
    return `${organizationId} ${await this.changeRequests.listVersion(organizationId)} ${narrowed}`;
  }

  /**
   * GET /orgs/{id}/change-requests: over the spaces the caller reads (404 for non-members), newest
   * first. Filters on links Quire does not have (sites, topics, style guide runs) match none.
   */
  async listInOrganization(
    actor: Actor,
    organizationId: string,
    filter: {
      statuses?: ChangeRequestStatus[];
      creator?: string;
      contributor?: string;
      requestedReviewer?: string;
      space?: string;
      conversationsIssuesCluster?: string;
      unlinked?: boolean;
      orderBy?: 'updatedAt' | 'createdAt';
    },
    page: PageRequest,
  ): Promise<Page<ChangeRequestView>> {
    // Narrowed in the query to the spaces the caller may read (guests: those granted; restricted ones left out).
    const readable = await this.spaces.readable(actor, organizationId);
    if (filter.unlinked) return { items: [], count: 0 };
    const result = await this.changeRequests.listInOrganization(
      organizationId,
      {
        narrowing: readable,
        statuses: filter.statuses?.length ? filter.statuses : ['open'],
        space: filter.space,
        creator: filter.creator,
        contributor: filter.contributor,
        requestedReviewer: filter.requestedReviewer,
        conversationsIssuesCluster: filter.conversationsIssuesCluster,
        orderBy: filter.orderBy ?? 'updatedAt',
      },
      page,
    );
    const views = await this.spaces.viewsOf(
      actor,
      organizationId,
      result.items.map((cr) => cr.spaceId),
    );
    const items = result.items.flatMap((changeRequest) => {
      const v = views.get(changeRequest.spaceId);
      return v ? [{ changeRequest, space: v.space, role: v.role }] : [];
    });
    return { ...result, items };
  }

  private requireEdit(role: Role): void {
    if (!spacePermissions(role).edit) throw new ForbiddenError('Editing content needs the "edit" role on the space');
  }

  private async refreshCounters(spaceId: string): Promise<void> {
    const c = await this.changeRequests.counts(spaceId);
    await this.content.setChangeRequestCounters(spaceId, {
      changeRequests: c.total,
      changeRequestsOpen: c.open,
      changeRequestsDraft: c.draft,
    });
  }

  /**
   * Opens a change request on main, or on an earlier revision of the space (`base`: a Git Sync import whose
   * space moved since the last sync starts where the two sides parted, so its merge is three-way).
   */
  async create(actor: Actor, spaceId: string, input: { subject?: string }, base?: string): Promise<ChangeRequestView> {
    const { space, role } = await this.space(actor, spaceId);
    this.requireEdit(role);
    if (base !== undefined) await this.content.revision(space.id, base);
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
      revision: base ?? space.revision,
      revisionInitial: base ?? space.revision,
      revisionMergedAncestor: null,
      revisionMerged: null,
      contributors: [],
      conversationsIssuesCluster: null,
    });
    await this.refreshCounters(space.id);
    this.statusChanged(actor, changeRequest, null, changeRequest.status);
    return { changeRequest, space: (await this.spaces.get(actor, spaceId)).space, role };
  }

  /** PATCH: writes only what it changes; re-applied on fresh data if the status moved meanwhile (a merge is never undone). */
  async update(
    actor: Actor,
    spaceId: string,
    ref: string,
    patch: { subject?: string; description?: object | null; status?: ChangeRequestStatus; conversationsIssuesCluster?: string | null },
  ): Promise<ChangeRequestView> {
    // A description is a document the content model can read (and write back as markdown), or a 400.
    const description =
      patch.description === undefined || patch.description === null
        ? patch.description
        : checkDocumentInput(patch.description, 'description', CHANGE_REQUEST_DESCRIPTION_MAX).document;
    if (patch.conversationsIssuesCluster) {
      const { space } = await this.spaces.getLive(actor, spaceId);
      if (!(await this.clusters.clusterExists(space.organizationId, patch.conversationsIssuesCluster)))
        throw new NotFoundError('Issues cluster', patch.conversationsIssuesCluster);
    }
    const { v, next } = await untilWritten(async () => {
      const v = await this.view(actor, spaceId, ref);
      this.requireEdit(v.role);
      const next: ChangeRequest = { ...v.changeRequest, updatedAt: this.clock.now() };
      if (patch.subject !== undefined) next.subject = patch.subject;
      if (description !== undefined) next.description = description;
      if (patch.status !== undefined) next.status = applyStatus(v.changeRequest, patch.status);
      if (patch.conversationsIssuesCluster !== undefined) next.conversationsIssuesCluster = patch.conversationsIssuesCluster;
      return (await this.changeRequests.updateFields(v.changeRequest, next)) ? { v, next } : undefined;
    }, 'The change request');
    if (patch.status !== undefined) await this.refreshCounters(v.space.id);
    if (next.status !== v.changeRequest.status) this.statusChanged(actor, next, v.changeRequest.status, next.status);
    return { ...v, changeRequest: next, space: (await this.spaces.get(actor, spaceId)).space };
  }

  /**
   * Writers of one change request take turns: a per-change-request mutex in this process, then its
   * row lock across processes, held for the unit of work. Inside, the change request is read again,
   * so every writer builds on the head the previous one left: concurrent batches all succeed.
   */
  private writeChangeRequest<T>(actor: Actor, spaceId: string, ref: string, write: (v: ChangeRequestView) => Promise<T>): Promise<T> {
    return this.writers.run(`${spaceId} ${ref}`, async () => {
      const first = await this.view(actor, spaceId, ref);
      return this.uow.run(async () => {
        await this.changeRequests.lock(first.changeRequest.id);
        return write(await this.view(actor, spaceId, ref));
      });
    });
  }

  /** updateChangeRequestContent: one atomic batch → one new head revision (or nothing, with a 400 naming the change). */
  /** A change request as one who may edit its content sees it (403 without the "edit" role; 412 when the space is locked). */
  async editableView(actor: Actor, spaceId: string, ref: string): Promise<ChangeRequestView> {
    const v = await this.view(actor, spaceId, ref);
    this.requireEdit(v.role);
    if (v.space.editMode === 'locked') throw new PreconditionError('The space is locked (editMode: locked): edits are refused');
    return v;
  }

  writeContent(
    actor: Actor,
    spaceId: string,
    ref: string,
    changes: ContentChangeInput[],
    repository?: ApplyContext['repository'],
  ): Promise<{ view: ChangeRequestView; outcomes: ChangeOutcome[]; insertedFiles: FileNode[] }> {
    const allowed = (v: ChangeRequestView) => {
      this.requireEdit(v.role);
      requireWritable(v.changeRequest);
      if (v.space.editMode === 'locked') throw new PreconditionError('The space is locked (editMode: locked): edits are refused');
    };
    // Outbound I/O comes first, outside any unit of work: the caller is checked and the URL sources are
    // fetched on no transaction's connection, so a slow remote holds neither a connection nor this change
    // request's lock. Inside, everything is checked again on what the lock holds.
    const preparing = this.uow.outside(async () => {
      allowed(await this.view(actor, spaceId, ref));
      return this.content.prepareChanges(changes, repository);
    });
    return preparing.then((prepared) =>
      this.writeChangeRequest(actor, spaceId, ref, async (v) => {
        allowed(v);
        const cr = v.changeRequest;
        const { revision, outcomes, insertedFiles } = await this.content.commitChanges(
          v.space,
          cr.revision,
          prepared,
          actor.userId,
          baseOf(cr),
        );
        const now = this.clock.now();
        await this.moveHead(cr, revision.id, { contributor: actor.userId, at: now });
        const updated: ChangeRequest = {
          ...cr,
          revision: revision.id,
          updatedAt: now,
          contributors: cr.contributors.includes(actor.userId) ? cr.contributors : [...cr.contributors, actor.userId],
        };
        return { view: { ...v, changeRequest: updated }, outcomes, insertedFiles };
      }),
    );
  }

  /**
   * Three-way merge into main, in one unit of work: main moves and the change request is marked merged
   * together, or neither (a true conflict is a 409 listing the pages; nothing is written then).
   */
  /** Merges into main; `git`: the commit a Git Sync import came from, recorded on the merge revision. */
  async merge(actor: Actor, spaceId: string, ref: string, git: RevisionGit | null = null): Promise<{ revision: string; result: 'merge' }> {
    const { revision, space } = await this.writeChangeRequest(actor, spaceId, ref, async (v) => {
      if (!spacePermissions(v.role).merge) throw new ForbiddenError('Merging needs the "edit" role on the space');
      requireWritable(v.changeRequest);
      await this.checkMergeRules(actor, v);
      const cr = v.changeRequest;
      const outcome = await this.content.mergeIntoSpace(v.space.id, baseOf(cr), cr.revision, actor.userId, cr.id, git);
      if (!outcome.ok)
        throw new ConflictError(`Change request #${cr.number} conflicts with the space's content`, { conflicts: outcome.conflicts });
      if (!(await this.changeRequests.markMerged(cr.id, outcome.revision!.id, actor.userId, this.clock.now()))) {
        throw new ConflictError(`Change request #${cr.number} was merged or closed meanwhile`);
      }
      this.statusChanged(actor, cr, cr.status, 'merged');
      return { revision: outcome.revision!.id, space: v.space.id };
    });
    await this.content.refreshSearch(space);
    await this.refreshCounters(space);
    return { revision, result: 'merge' };
  }

  /** Brings main into the change request with the same three-way merge. */
  updateFromMain(actor: Actor, spaceId: string, ref: string): Promise<{ revision: string; result: 'update' }> {
    return this.writeChangeRequest(actor, spaceId, ref, async (v) => {
      this.requireEdit(v.role);
      requireWritable(v.changeRequest);
      const cr = v.changeRequest;
      const main = v.space.revision;
      if (main === baseOf(cr)) return { revision: cr.revision, result: 'update' as const };
      let revisionId: string;
      if (cr.revision === baseOf(cr)) revisionId = main;
      else {
        const merged = await this.content.merge(v.space, { base: baseOf(cr), ours: cr.revision, theirs: main });
        if (!merged.ok)
          throw new ConflictError(`Change request #${cr.number} conflicts with the space's content`, { conflicts: merged.conflicts });
        revisionId = (
          await this.content.storeRevision(
            v.space,
            merged.tree,
            merged.files,
            merged.documents,
            [cr.revision, main],
            'update',
            actor.userId,
            null,
            null,
            merged.reusableContents,
            merged.variables,
          )
        ).id;
      }
      await this.moveHead(cr, revisionId, { revisionMergedAncestor: main, at: this.clock.now() });
      return { revision: revisionId, result: 'update' as const };
    });
  }

  private async moveHead(
    cr: ChangeRequest,
    next: string,
    patch: { revisionMergedAncestor?: string; contributor?: string; at: Date },
  ): Promise<void> {
    // Under the row lock nobody else moves the head: a failed compare-and-set is a bug, not a race.
    if (!(await this.changeRequests.compareAndSetRevision(cr.id, cr.revision, next, patch)))
      throw new Error(`change request ${cr.id} moved while its row was locked`);
  }
}
