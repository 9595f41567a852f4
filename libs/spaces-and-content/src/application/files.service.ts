import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { imageSize } from 'image-size';
import { Clock, HostResolver, InvalidInputError, safeGet, SafeGetError, SafeGetResult, UnitOfWork } from '@app/shared-kernel';
import type { ResolvedFile } from '@app/content-model';
import { FILE_MAX_BYTES, FILE_NAME_MAX, FileNode, FileStorage, UnreferencedContent } from '../domain/content/files';

/** Configuration of file uploads and downloads (set by the application). */
export abstract class FilesSettings {
  /** Secret for signing download URLs; every API process must share it. */
  abstract readonly signingSecret: string;
  abstract readonly downloadTtlMs: number;
  /** Hosts from which `insert_files` may fetch `url` sources; empty: URL sources are refused. */
  abstract readonly urlAllowlist: string[];
  /** Let allowlisted hosts resolve to loopback or private addresses (tests, internal mirrors). Off by default. */
  abstract readonly allowPrivateNetworks: boolean;
  /** A valid download link redirects to the store's own presigned URL (S3) instead of passing the bytes through. */
  abstract readonly presignedDownloads: boolean;
}

export interface FileInput {
  ref?: string;
  name: string;
  contentType?: string;
  base64?: string;
  url?: string;
}

/** A file whose bytes FilesService.stage stored already (never from a request: the HTTP DTOs refuse it). */
export interface StagedFileInput {
  staged: ResolvedFile;
}

/** Uploads (base64 or allowlisted URLs), content-addressed storage, and signed, expiring download URLs. */
@Injectable()
export class FilesService {
  constructor(
    private readonly storage: FileStorage,
    private readonly settings: FilesSettings,
    private readonly uow: UnitOfWork,
    private readonly resolver: HostResolver,
    private readonly unreferenced: UnreferencedContent,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads and checks one file of an insert_files change. Nothing is written: the bytes are stored by
   * `store`, once the whole batch is valid, inside the batch's unit of work.
   */
  async resolve(input: FileInput, where: string): Promise<{ file: ResolvedFile; bytes: Buffer }> {
    checkName(input.name, where);
    let bytes: Buffer;
    let contentType = input.contentType;
    if (input.base64 !== undefined) {
      if (!contentType) throw new InvalidInputError(`${where}.contentType is required with base64`);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.base64.replace(/\s/g, '')))
        throw new InvalidInputError(`${where}.base64 is not valid base64`);
      bytes = Buffer.from(input.base64, 'base64');
    } else if (input.url !== undefined) {
      const fetched = await this.fetch(input.url, where);
      bytes = fetched.bytes;
      contentType = contentType ?? fetched.contentType;
    } else throw new InvalidInputError(`${where} needs exactly one source: base64 or url`);
    return { file: this.check(input, contentType, bytes, where), bytes };
  }

  /**
   * Checks and stores one file's bytes now, outside any batch, and answers the file a later batch inserts
   * (`{ staged }` in insert_files): a repository import stores its assets one at a time, so that it never
   * holds more than one in memory. The caller checks first that it may write to the space. The bytes are
   * claimed (the collector leaves them alone); if no revision ever references them, the collector marks them
   * at its next run and removes them a grace period later.
   */
  async stage(
    organizationId: string,
    input: { ref?: string; name: string; contentType: string },
    bytes: Buffer,
    where: string,
  ): Promise<ResolvedFile> {
    checkName(input.name, where);
    const file = this.check(input, input.contentType, bytes, where);
    await this.unreferenced.claimBlobs(organizationId, [file.hash]);
    if (!(await this.storage.exists(organizationId, file.hash))) await this.storage.put(organizationId, file.hash, bytes);
    return file;
  }

  /** A file's size, content type and (for an image) dimensions checked, its hash taken. */
  private check(input: { ref?: string; name: string }, contentType: string | undefined, bytes: Buffer, where: string): ResolvedFile {
    if (bytes.length > FILE_MAX_BYTES) throw new InvalidInputError(`${where} is larger than ${FILE_MAX_BYTES} bytes`);
    if (contentType && !/^[\w.+-]+\/[\w.+-]+$/.test(contentType)) throw new InvalidInputError(`${where}.contentType is not a MIME type`);
    const hash = createHash('sha256').update(bytes).digest('hex');
    let dimensions: FileNode['dimensions'];
    if ((contentType ?? '').startsWith('image/')) {
      try {
        const size = imageSize(bytes);
        if (size.width && size.height) dimensions = { width: size.width, height: size.height };
      } catch {
        throw new InvalidInputError(`${where} says it is ${contentType} but is not a readable image`);
      }
    }
    const file: ResolvedFile = { name: input.name, contentType: contentType ?? 'application/octet-stream', size: bytes.length, hash };
    if (dimensions) file.dimensions = dimensions;
    if (input.ref !== undefined) file.ref = input.ref;
    return file;
  }

  /**
   * Stores the bytes of a valid batch, in the caller's unit of work. Each file's bytes are claimed first
   * (UnreferencedContent: the collector cannot remove bytes a write is about to rely on). Bytes this batch
   * stored are left to the collector if the unit of work rolls back: recorded as unreferenced, they are
   * removed a grace period later unless a write of the same bytes (here or in another process) uses them.
   */
  async store(organizationId: string, files: { hash: string; bytes: Buffer | null }[]): Promise<void> {
    await this.unreferenced.claimBlobs(
      organizationId,
      files.map((f) => f.hash),
    );
    const created: string[] = [];
    for (const { hash, bytes } of files) {
      // A staged file: its bytes were stored before the batch, and are claimed again now.
      if (bytes === null) {
        if (!(await this.storage.exists(organizationId, hash)))
          throw new Error(`The bytes of a staged file (${hash}) are gone: they were stored too long ago; try again`);
        continue;
      }
      if (!(await this.storage.exists(organizationId, hash))) {
        await this.storage.put(organizationId, hash, bytes);
        created.push(hash);
      }
    }
    if (created.length)
      this.uow.onRollback(() => this.uow.outside(() => this.unreferenced.orphanBlobs(organizationId, created, this.clock.now())));
  }

  /** Copies bytes to another organization's store (a space moving there), claimed there first like a write's. */
  async copyBytes(fromOrganizationId: string, toOrganizationId: string, hashes: string[]): Promise<void> {
    await this.unreferenced.claimBlobs(toOrganizationId, hashes);
    for (const hash of hashes) {
      if (await this.storage.exists(toOrganizationId, hash)) continue;
      const bytes = await this.storage.get(fromOrganizationId, hash);
      if (bytes) await this.storage.put(toOrganizationId, hash, bytes);
    }
  }

  /** Fetches a URL source: allowlisted host, public addresses only (unless allowed), no redirects, 1 MB at most. */
  private async fetch(raw: string, where: string): Promise<{ bytes: Buffer; contentType?: string }> {
    let res: SafeGetResult;
    try {
      res = await safeGet(raw, {
        maxBytes: FILE_MAX_BYTES,
        timeoutMs: 10_000,
        maxRedirects: 0,
        hostAllowed: (host) => this.settings.urlAllowlist.includes(host),
        privateAllowed: () => this.settings.allowPrivateNetworks,
        resolve: (host) => this.resolver.lookup(host),
      });
    } catch (e) {
      if (!(e instanceof SafeGetError)) throw e;
      if (e.reason === 'host-not-allowed')
        throw new InvalidInputError(
          `${where}.url: ${e.message} (not in the URL allowlist, QUIRE_FILE_URL_ALLOWLIST); send the file as base64`,
        );
      if (e.reason === 'too-large') throw new InvalidInputError(`${where} is larger than ${FILE_MAX_BYTES} bytes`);
      throw new InvalidInputError(`${where}.url ${e.message}`);
    }
    if (res.status !== 200) throw new InvalidInputError(`${where}.url answered ${res.status}`);
    return { bytes: res.bytes, contentType: res.contentType };
  }

  private signature(organizationId: string, file: FileNode, expires: number): string {
    return createHmac('sha256', this.settings.signingSecret)
      .update(`${organizationId}\n${file.hash}\n${file.name}\n${file.contentType}\n${expires}`)
      .digest('base64url');
  }

  /** A signed URL path that serves the file's bytes until it expires. */
  downloadPath(organizationId: string, file: FileNode, nowMs: number): string {
    const expires = Math.floor((nowMs + this.settings.downloadTtlMs) / 1000);
    const q = new URLSearchParams({
      name: file.name,
      type: file.contentType,
      expires: String(expires),
      sig: this.signature(organizationId, file, expires),
    });
    return `/files/${organizationId}/${file.hash}?${q.toString()}`;
  }

  /** The stored bytes of a file (null when gone). */
  bytes(organizationId: string, hash: string): Promise<Buffer | null> {
    return this.storage.get(organizationId, hash);
  }

  /**
   * What a download URL leads to: the bytes, or (presigned downloads on a store that has them) the store's
   * own URL, valid as long as the link; null when the signature is wrong, it expired, or the file is gone.
   */
  async download(
    organizationId: string,
    hash: string,
    q: { name: string; type: string; expires: string; sig: string },
    nowMs: number,
  ): Promise<{ bytes: Buffer } | { location: string } | null> {
    const expires = Number(q.expires);
    if (!Number.isInteger(expires) || expires * 1000 < nowMs) return null;
    const expected = Buffer.from(this.signature(organizationId, { id: '', name: q.name, contentType: q.type, size: 0, hash }, expires));
    const given = Buffer.from(q.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (this.settings.presignedDownloads) {
      if (!(await this.storage.exists(organizationId, hash))) return null;
      const options = { name: q.name, contentType: q.type, expiresInSeconds: expires - Math.floor(nowMs / 1000) };
      const location = await this.storage.presignedUrl(organizationId, hash, options);
      if (location) return { location };
    }
    const bytes = await this.storage.get(organizationId, hash);
    return bytes ? { bytes } : null;
  }
}

function checkName(name: string, where: string): void {
  if (!name || name.length > FILE_NAME_MAX || /[/\\\0]/.test(name))
    throw new InvalidInputError(`${where}.name must be 1 to ${FILE_NAME_MAX} characters, without slashes`);
}
