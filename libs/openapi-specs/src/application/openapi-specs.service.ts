import { Injectable } from '@nestjs/common';
import { Actor, Clock, ConflictError, IdGenerator, NotFoundError, Page, PageRequest, Role, UnitOfWork } from '@app/shared-kernel';
import {
  checkSlug,
  checkSource,
  OpenApiSpec,
  OpenApiSpecRepository,
  SpecVersion,
  SpecVisibility,
  withNewSource,
} from '../domain/openapi-spec';
import { OpenApiEvents } from './openapi-events';
import { OpenApiProcessing } from './openapi-processing.service';
import { Access } from '@app/access';

export interface SpecView {
  spec: OpenApiSpec;
  role: Role;
}

/** Reading needs membership; registering, changing and deleting specs the `create` role (docs/permissions.md). */
export const SPEC_ROLES = { read: 'read', write: 'create' } as const satisfies Record<string, Role>;

export type SourceInput = { url?: unknown; text?: unknown };

@Injectable()
export class OpenApiSpecsService {
  constructor(
    private readonly specs: OpenApiSpecRepository,
    private readonly access: Access,
    private readonly processing: OpenApiProcessing,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: OpenApiEvents,
  ) {}

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<SpecView>> {
    const role = await this.access.require(organizationId, actor, SPEC_ROLES.read);
    const result = await this.specs.list(organizationId, page);
    return { ...result, items: result.items.map((spec) => ({ spec, role })) };
  }

  async get(actor: Actor, organizationId: string, slug: string): Promise<SpecView> {
    const role = await this.access.require(organizationId, actor, SPEC_ROLES.read);
    return { spec: await this.found(organizationId, slug), role };
  }

  /** POST: a new spec (409 when the slug is taken); processing starts in the background. */
  async create(actor: Actor, organizationId: string, slug: string, source: SourceInput): Promise<SpecView> {
    const role = await this.access.require(organizationId, actor, SPEC_ROLES.write);
    const spec = this.newSpec(organizationId, checkSlug(slug), checkSource(source));
    await this.uow.run(async () => {
      if (!(await this.specs.insert(spec))) throw new ConflictError(`An OpenAPI specification with the slug "${slug}" already exists`);
      this.processing.request(spec);
      this.events.publish('openapi-spec.created', organizationId, actor.userId, { specId: spec.id, slug });
    });
    return { spec, role };
  }

  /** PUT: creates the spec or gives it a new source (processed again, even when the source is the same URL). */
  async put(actor: Actor, organizationId: string, slug: string, input: SourceInput): Promise<SpecView & { created: boolean }> {
    const role = await this.access.require(organizationId, actor, SPEC_ROLES.write);
    checkSlug(slug);
    const source = checkSource(input);
    for (let attempt = 0; attempt < 3; attempt++) {
      const done = await this.uow.run(async () => {
        const existing = await this.specs.findBySlug(organizationId, slug);
        if (!existing) {
          const spec = this.newSpec(organizationId, slug, source);
          if (!(await this.specs.insert(spec))) return undefined; // created meanwhile: update it instead
          this.processing.request(spec);
          this.events.publish('openapi-spec.created', organizationId, actor.userId, { specId: spec.id, slug });
          return { spec, role, created: true };
        }
        const locked = (await this.specs.lockById(existing.id))!;
        const spec = withNewSource(locked, source, this.clock.now());
        await this.specs.update(locked, spec);
        this.processing.request(spec);
        this.events.publish('openapi-spec.source-changed', organizationId, actor.userId, { specId: spec.id, slug });
        return { spec, role, created: false };
      });
      if (done) return done;
    }
    throw new ConflictError('The specification changed meanwhile; try again');
  }

  async setVisibility(actor: Actor, organizationId: string, slug: string, visibility: SpecVisibility): Promise<SpecView> {
    const role = await this.access.require(organizationId, actor, SPEC_ROLES.write);
    return this.uow.run(async () => {
      const found = await this.found(organizationId, slug);
      const locked = (await this.specs.lockById(found.id))!;
      const spec: OpenApiSpec = { ...locked, visibility, updatedAt: this.clock.now() };
      await this.specs.update(locked, spec);
      this.events.publish('openapi-spec.visibility-changed', organizationId, actor.userId, { specId: spec.id, visibility });
      return { spec, role };
    });
  }

  async delete(actor: Actor, organizationId: string, slug: string): Promise<'deleted' | 'absent'> {
    checkSlug(slug); // a slug no spec can have is a mistake, not an absent spec
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    const spec = await this.specs.findBySlug(organizationId, slug);
    if (!spec) return 'absent';
    await this.access.require(organizationId, actor, SPEC_ROLES.write);
    return this.uow.run(async () => {
      if (!(await this.specs.delete(organizationId, slug))) return 'absent';
      this.events.publish('openapi-spec.deleted', organizationId, actor.userId, { specId: spec.id, slug });
      return 'deleted';
    });
  }

  async versions(actor: Actor, organizationId: string, slug: string, page: PageRequest) {
    const { spec } = await this.get(actor, organizationId, slug);
    return { spec, page: await this.specs.listVersions(spec.id, page) };
  }

  /** A version (`latest` for the newest); 404 when there is none. */
  async version(
    actor: Actor,
    organizationId: string,
    slug: string,
    versionId: string,
  ): Promise<{ spec: OpenApiSpec; version: SpecVersion }> {
    const { spec } = await this.get(actor, organizationId, slug);
    const version = versionId === 'latest' ? await this.specs.latestVersion(spec.id) : await this.specs.version(spec.id, versionId);
    if (!version)
      throw new NotFoundError(
        versionId === 'latest' ? 'Version of the specification' : 'Version',
        versionId === 'latest' ? undefined : versionId,
      );
    return { spec, version };
  }

  /** The latest version of a public spec, for anyone holding its id (the public link). */
  async publicLatest(specId: string): Promise<SpecVersion> {
    const spec = await this.specs.findById(specId);
    const version = spec?.visibility === 'public' ? await this.specs.latestVersion(spec.id) : null;
    if (!version) throw new NotFoundError('OpenAPI specification', specId);
    return version;
  }

  private async found(organizationId: string, slug: string): Promise<OpenApiSpec> {
    const spec = await this.specs.findBySlug(organizationId, slug);
    if (!spec) throw new NotFoundError('OpenAPI specification', slug);
    return spec;
  }

  private newSpec(organizationId: string, slug: string, source: OpenApiSpec['source']): OpenApiSpec {
    const now = this.clock.now();
    return {
      id: this.ids.next(),
      organizationId,
      slug,
      visibility: 'private',
      source,
      sourceRevision: 1,
      processingState: 'pending',
      lastProcessedAt: null,
      lastProcessErrorCode: null,
      lastProcessedErrors: [],
      lastProcessedErrorCount: 0,
      lastVersionId: null,
      createdAt: now,
      updatedAt: now,
    };
  }
}
