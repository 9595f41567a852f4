import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Access } from '@app/access';
import { InvalidInputError, NotFoundError } from '@app/shared-kernel';
import { markdownToDocument, slugify, type JsonDocument, type PageNode } from '@app/content-model';
import type { ComputedContext, ComputedRevision, ComputedSource, ComputedSourceHandler } from '@app/spaces-and-content';
import { OpenApiSpecRepository, type OpenApiSpec } from '../domain/openapi-spec';
import {
  checkDocumentProps,
  checkRevisionProps,
  referenceDocument,
  referencePages,
  type ReferencePage,
} from '../domain/computed-reference';
import { OpenApiOperations } from './openapi-operations';

/** Page titles of a computed reference are cut to this length. */
const TITLE_MAX = 100;

/** An id from the request's seed and what it names: the same seed computes the same ids (official `seed`). */
export function seededId(seed: string, key: string): string {
  return createHash('sha256').update(`${seed}\n${key}`).digest('base64url').replace(/[-_]/g, '').slice(0, 20);
}

/**
 * `builtin:openapi` computed content (#52): a document or a whole API reference from one of the organization's
 * specs (`dependencies.spec.ref`: `{kind: "openapi", spec: slug}`), at its latest processed version. Members of
 * the organization may compute (guests of a space do not see its specs).
 */
@Injectable()
export class ComputedReference implements ComputedSourceHandler {
  constructor(
    private readonly specs: OpenApiSpecRepository,
    private readonly operations: OpenApiOperations,
    private readonly access: Access,
  ) {}

  async document(context: ComputedContext, source: ComputedSource): Promise<JsonDocument> {
    const props = checkDocumentProps(source.props);
    const { spec, doc } = await this.specOf(context, source);
    return markdownToDocument(referenceDocument(doc, spec.slug, props)).document;
  }

  async revision(context: ComputedContext, source: ComputedSource): Promise<ComputedRevision> {
    const props = checkRevisionProps(source.props);
    const { spec, doc } = await this.specOf(context, source);
    const download = spec.visibility === 'public' ? context.api(`/openapi/public/${spec.id}`) : undefined;
    const documents = new Map<string, JsonDocument>();
    const nodes = (pages: ReferencePage[]): PageNode[] => {
      const slugs = new Set<string>();
      return pages.map((p) => {
        const id = seededId(context.seed, `${spec.slug}\n${p.key}`);
        const title = p.title.slice(0, TITLE_MAX);
        let slug = slugify(title, 'page');
        for (let n = 2; slugs.has(slug); n++) slug = `${slugify(title, 'page')}-${n}`;
        slugs.add(slug);
        documents.set(id, markdownToDocument(p.markdown).document);
        return { id, type: 'document', title, slug, document: null, pages: nodes(p.children) };
      });
    };
    const tree = nodes(referencePages(doc, spec.slug, props, download));
    return { tree, documents, files: [], reusableContents: [] };
  }

  private async specOf(context: ComputedContext, source: ComputedSource): Promise<{ spec: OpenApiSpec; doc: unknown }> {
    const organizationId = context.space.organizationId;
    await this.access.require(organizationId, context.actor, 'read', 'OpenAPI spec');
    const dependency = source.dependencies.spec as { ref?: { kind?: unknown; spec?: unknown } } | undefined;
    const ref = dependency?.ref;
    if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string' || !ref.spec || ref.spec.length > 100)
      throw new InvalidInputError('source.dependencies.spec.ref must be {kind: "openapi", spec: <the slug of a spec>}');
    const spec = await this.specs.findBySlug(organizationId, ref.spec);
    if (!spec) throw new NotFoundError('OpenAPI spec', ref.spec);
    const doc = await this.operations.parsed(spec.id);
    if (doc === undefined) throw new InvalidInputError(`The OpenAPI spec "${spec.slug}" has no processed version yet`);
    return { spec, doc };
  }
}
