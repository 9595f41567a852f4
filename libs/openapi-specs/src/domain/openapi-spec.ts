import { InvalidInputError, Page, PageRequest } from '@app/shared-kernel';

/** Spec part 2 §2.8 (stricter than the official document: lowercase only). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 100;
export const URL_MAX = 2048;
/** The largest document Quire processes, from a URL or as text. */
export const SPEC_MAX_BYTES = 10 * 1024 * 1024;
/** Errors kept per run (`lastProcessedErrorCount` tells how many there were). */
export const ERRORS_KEPT = 50;

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];
/** Official `OpenAPISpecProcessingErrorCode`. */
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];
export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export type SpecVisibility = (typeof SPEC_VISIBILITIES)[number];

export type SpecSource = { kind: 'url'; url: string } | { kind: 'text'; text: string };

/** One problem found by a processing run: `code` says which kind; `line`/`pointer` where the parser tells. */
export interface ProcessingError {
  message: string;
  code: string;
  /** 1-based line of the source text, for syntax errors. */
  line?: number;
  /** JSON pointer into the document (`#/paths/~1pets/get`), for schema and reference errors. */
  pointer?: string;
}

export interface OpenApiSpec {
  id: string;
  organizationId: string;
  slug: string;
  visibility: SpecVisibility;
  source: SpecSource;
  /** Moves with every change of the source: a run keeps its result only if it processed the current one. */
  sourceRevision: number;
  processingState: ProcessingState;
  lastProcessedAt: Date | null;
  lastProcessErrorCode: ProcessErrorCode | null;
  lastProcessedErrors: ProcessingError[];
  lastProcessedErrorCount: number;
  lastVersionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SpecVersion {
  id: string;
  specId: string;
  organizationId: string;
  createdAt: Date;
  /** Where the source was read (URL sources); null for text sources. */
  sourceUrl: string | null;
  format: 'json' | 'yaml';
  /** SHA-256 of the text: equal content, no new version. */
  contentHash: string;
  text: string;
}

export function checkSlug(slug: string): string {
  if (slug.length < 1 || slug.length > SLUG_MAX || !SLUG_PATTERN.test(slug))
    throw new InvalidInputError(`slug must be 1 to ${SLUG_MAX} lowercase letters, digits and single dashes (${SLUG_PATTERN.source})`);
  return slug;
}

/** A source as given: exactly one of `url` (http(s), ≤ 2048) or `text` (1 byte to 10 MB). */
export function checkSource(input: { url?: unknown; text?: unknown }): SpecSource {
  const given = (['url', 'text'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1) throw new InvalidInputError('source takes exactly one of "url" or "text"');
  if (given[0] === 'url') {
    const url = input.url;
    if (typeof url !== 'string' || url.length > URL_MAX)
      throw new InvalidInputError(`source.url must be a URL of at most ${URL_MAX} characters`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidInputError('source.url is not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidInputError('source.url must be http(s)');
    if (parsed.username || parsed.password) throw new InvalidInputError('source.url must not carry credentials');
    return { kind: 'url', url };
  }
  const text = input.text;
  if (typeof text !== 'string' || text.length === 0) throw new InvalidInputError('source.text must be a non-empty string');
  if (Buffer.byteLength(text, 'utf8') > SPEC_MAX_BYTES) throw new InvalidInputError(`source.text is larger than ${SPEC_MAX_BYTES} bytes`);
  return { kind: 'text', text };
}

export function sameSource(a: SpecSource, b: SpecSource): boolean {
  return a.kind === b.kind && (a.kind === 'url' ? a.url === (b as { url: string }).url : a.text === (b as { text: string }).text);
}

/** A spec whose source (re)starts processing. */
export function withNewSource(spec: OpenApiSpec, source: SpecSource, now: Date): OpenApiSpec {
  return { ...spec, source, sourceRevision: spec.sourceRevision + 1, processingState: 'pending', updatedAt: now };
}

/** What a processing run found. */
export type ProcessingOutcome =
  | { ok: true; text: string; format: 'json' | 'yaml'; contentHash: string; sourceUrl: string | null }
  | { ok: false; code: ProcessErrorCode; errors: ProcessingError[] };

export abstract class OpenApiSpecRepository {
  abstract insert(spec: OpenApiSpec): Promise<boolean>;
  abstract findBySlug(organizationId: string, slug: string): Promise<OpenApiSpec | null>;
  abstract findById(specId: string): Promise<OpenApiSpec | null>;
  /** The spec locked for a read-modify-write (inside a unit of work). */
  abstract lockById(specId: string): Promise<OpenApiSpec | null>;
  /** Writes what changed between `before` (as locked by lockById) and `after`. */
  abstract update(before: OpenApiSpec, after: OpenApiSpec): Promise<void>;
  abstract delete(organizationId: string, slug: string): Promise<boolean>;
  abstract list(organizationId: string, page: PageRequest): Promise<Page<OpenApiSpec>>;
  /** pending → progress for this source revision; false when another run has it or the source moved on. */
  abstract claim(specId: string, sourceRevision: number, now: Date): Promise<boolean>;
  /** Specs a lost job left behind: pending since before `pendingBefore`, or in progress since before `stuckBefore`. */
  abstract stale(pendingBefore: Date, stuckBefore: Date, limit: number): Promise<{ id: string; sourceRevision: number }[]>;

  abstract insertVersion(version: SpecVersion): Promise<void>;
  abstract latestVersion(specId: string): Promise<SpecVersion | null>;
  abstract version(specId: string, versionId: string): Promise<SpecVersion | null>;
  /** Newest first; without their text. */
  abstract listVersions(specId: string, page: PageRequest): Promise<Page<Omit<SpecVersion, 'text'>>>;
}

/** Port: reads a URL source (SSRF-safe, bounded). */
export abstract class SpecFetcher {
  abstract fetch(
    url: string,
  ): Promise<{ ok: true; text: string; url: string } | { ok: false; code: ProcessErrorCode; error: ProcessingError }>;
}

/** Port: parses and validates a document (Swagger 2.0, OpenAPI 3.0, 3.1; JSON or YAML). */
export abstract class SpecParser {
  abstract parse(text: string): Promise<{ ok: true; format: 'json' | 'yaml' } | { ok: false; errors: ProcessingError[] }>;
}
