import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { FileStorage } from '../domain/content/files';
import { FileStorageDirectory } from '../application/file-storage-settings';

const SAFE = /^[A-Za-z0-9_-]+$/;

/** File bytes on local disk: `<dir>/<organization>/<sha256>`, written atomically (temp file, then rename). */
@Injectable()
export class LocalDiskFileStorage extends FileStorage {
  constructor(private readonly dir: FileStorageDirectory) {
    super();
  }

  private path(organizationId: string, hash: string): string {
    if (!SAFE.test(organizationId) || !/^[0-9a-f]{64}$/.test(hash)) throw new Error('invalid file address');
    return join(this.dir.path, organizationId, hash);
  }

  async put(organizationId: string, hash: string, bytes: Buffer): Promise<void> {
    const target = this.path(organizationId, hash);
    await mkdir(join(this.dir.path, organizationId), { recursive: true });
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async exists(organizationId: string, hash: string): Promise<boolean> {
    try {
      await access(this.path(organizationId, hash));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  async delete(organizationId: string, hash: string): Promise<void> {
    await rm(this.path(organizationId, hash), { force: true });
  }

  async get(organizationId: string, hash: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(organizationId, hash));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }
}
