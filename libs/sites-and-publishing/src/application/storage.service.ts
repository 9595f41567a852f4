import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { Access } from '@app/access';
import { Actor, Clock, ConflictError, IdGenerator, InvalidInputError, NotFoundError } from '@app/shared-kernel';
import { checkUploadRequest, StorageFile, StorageRepository, UPLOAD_URL_MS } from '../domain/storage';
import { SITE_ROLES } from './sites.service';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Files for sites (#50): the official `generateStorageUploadURL` answers a URL that takes the file's bytes once,
 * within an hour, with the type and size it was asked for; the file is then served at its key, publicly (a
 * logo shows to every visitor), as GitBook serves its files. Members who may create sites may upload.
 */
@Injectable()
export class StorageService {
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
    await this.files.insert(file);
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
    if (!(await this.files.complete(file.key, bytes, now))) throw new ConflictError('This upload URL was used already');
    return { ...file, uploadedAt: now };
  }

  async read(key: string): Promise<{ file: StorageFile; bytes: Buffer }> {
    const found = await this.files.read(key);
    if (!found) throw new NotFoundError('File', key);
    return found;
  }
}
