import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { Access } from '@app/access';
import { Actor, ByteLruCache, Clock, ConflictError, IdGenerator, InvalidInputError, NotFoundError } from '@app/shared-kernel';
import {
  checkUploadedBytes,
  checkUploadRequest,
  STORAGE_ORGANIZATION_MAX_BYTES,
  StorageFile,
  StorageRepository,
  UPLOAD_URL_MS,
} from '../domain/storage';
import { SITE_ROLES } from './sites.service';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Files for sites (#50): the official `generateStorageUploadURL` answers a URL that takes the file's bytes once,
 * within an hour, with the type and size it was asked for; the file is then served at its key, publicly (a
 * logo shows to every visitor), as GitBook serves its files. Members who may create sites may upload.
 */
@Injectable()
export class StorageService {
  private readonly served = new ByteLruCache(64 * 1024 * 1024, 'storage-files');

  constructor(
    private readonly files: StorageRepository,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async uploadUrl(
    actor: Actor,
    organizationId: string,
    input: { file: { name: string; type: string; size: number }; kind: string },
  ): Promise<{ key: string; token: string }> {
    await this.access.require(organizationId, actor, SITE_ROLES.create);
    const { kind, name, contentType, size } = checkUploadRequest(input);
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const file: StorageFile = {
      key: `${organizationId}/${this.ids.next()}/${name}`,
      organizationId,
      kind,
      name,
      contentType,
      size,
      tokenHash: hashOf(token),
      expiresAt: new Date(now.getTime() + UPLOAD_URL_MS),
      createdBy: actor.userId,
      createdAt: now,
      uploadedAt: null,
    };
    if (!(await this.files.insert(file, STORAGE_ORGANIZATION_MAX_BYTES)))
      throw new ConflictError(`The organization's uploads would exceed ${STORAGE_ORGANIZATION_MAX_BYTES / 1024 / 1024} MB`);
    return { key: file.key, token };
  }

  /** The bytes for an upload URL: exactly the type and size asked for, once, before the URL expires. */
  async upload(token: string, contentType: string | undefined, read: (max: number) => Promise<Buffer>): Promise<StorageFile> {
    const file = token.length <= 64 ? await this.files.pending(hashOf(token)) : null;
    const now = this.clock.now();
    if (!file || file.expiresAt <= now) throw new NotFoundError('Upload URL (used, expired or never made)');
    if ((contentType ?? '').split(';')[0].trim().toLowerCase() !== file.contentType)
      throw new InvalidInputError(`Content-Type must be ${file.contentType}, as the upload URL was asked for`);
    const bytes = await read(file.size);
    if (bytes.length !== file.size)
      throw new InvalidInputError(`The upload must be exactly ${file.size} bytes, as the upload URL was asked for`);
    checkUploadedBytes(file.contentType, bytes);
    if (!(await this.files.complete(file.key, bytes, this.clock.now())))
      throw new NotFoundError('Upload URL (used, expired or never made)');
    return { ...file, uploadedAt: now };
  }

  /** An uploaded file's type and bytes; files never change, so the most read stay in memory (64 MB at most). */
  async read(key: string): Promise<{ contentType: string; bytes: Buffer }> {
    const kept = this.served.get(key);
    if (kept) {
      const at = kept.indexOf(0x0a);
      return { contentType: Buffer.from(kept.subarray(0, at)).toString(), bytes: Buffer.from(kept.subarray(at + 1)) };
    }
    const found = await this.files.read(key);
    if (!found) throw new NotFoundError('File', key);
    this.served.set(key, Buffer.concat([Buffer.from(`${found.file.contentType}\n`), found.bytes]));
    return { contentType: found.file.contentType, bytes: found.bytes };
  }
}
