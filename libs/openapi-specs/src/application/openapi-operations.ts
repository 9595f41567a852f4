import { Injectable } from '@nestjs/common';
import { parse as parseYaml } from 'yaml';
import { BoundedMap } from '@app/shared-kernel';
import { OpenApiSpecRepository } from '../domain/openapi-spec';
import { operationView, schemasView, webhookView, type OperationView, type SchemaView } from '../domain/operation-view';

/** Parsed documents kept per process (a version's text never changes: its parse is kept by version id). */
const DOCUMENTS_MAX = 16;

/**
 * The operations of an organization's OpenAPI specs, for the pages that show them (a published site's
 * API reference blocks): the latest processed version of the spec with that slug. No actor: the caller
 * (the sites context) has already decided the reader may see the page, and the page belongs to the
 * organization whose spec it names.
 */
@Injectable()
export class OpenApiOperations {
  private readonly documents = new BoundedMap<string, unknown>(DOCUMENTS_MAX);

  constructor(private readonly specs: OpenApiSpecRepository) {}

  /** The latest version id of each slug's spec (absent: no such spec, or none processed yet), for cache keys. */
  async versions(organizationId: string, slugs: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const slug of new Set(slugs)) {
      const spec = await this.specs.findBySlug(organizationId, slug);
      if (spec?.lastVersionId) out.set(slug, spec.lastVersionId);
    }
    return out;
  }

  /** The operation `method path` of the spec's latest version, or null (no spec, no version, no such operation). */
  async operation(organizationId: string, slug: string, method: string, path: string): Promise<OperationView | null> {
    const spec = await this.specs.findBySlug(organizationId, slug);
    if (!spec) return null;
    const doc = await this.document(spec.id);
    return doc === undefined ? null : operationView(doc, method, path);
  }

  /** The webhook `method name` of the spec's latest version, or null. */
  async webhook(organizationId: string, slug: string, method: string, name: string): Promise<OperationView | null> {
    const doc = await this.documentOf(organizationId, slug);
    return doc === undefined ? null : webhookView(doc, name, method);
  }

  /** The named schemas of the spec's latest version, as outlines (null: no spec or no processed version). */
  async schemas(organizationId: string, slug: string, names: string[]): Promise<{ name: string; schema: SchemaView }[] | null> {
    const doc = await this.documentOf(organizationId, slug);
    return doc === undefined ? null : schemasView(doc, names);
  }

  /** The parsed latest version of a spec (undefined: none processed yet, or unreadable). */
  parsed(specId: string): Promise<unknown> {
    return this.document(specId);
  }

  private async documentOf(organizationId: string, slug: string): Promise<unknown> {
    const spec = await this.specs.findBySlug(organizationId, slug);
    return spec ? this.document(spec.id) : undefined;
  }

  private async document(specId: string): Promise<unknown> {
    const version = await this.specs.latestVersion(specId);
    if (!version) return undefined;
    if (this.documents.has(version.id)) return this.documents.get(version.id);
    let doc: unknown;
    try {
      // Processing already accepted this text; the limits stay (aliases) in case of an older version.
      doc = version.format === 'json' ? JSON.parse(version.text) : parseYaml(version.text, { maxAliasCount: 100 });
    } catch {
      doc = undefined;
    }
    this.documents.set(version.id, doc);
    return doc;
  }
}
