export type { FileNode } from '@app/content-model';
export { FILE_MAX_BYTES, FILE_NAME_MAX } from '@app/content-model';

/** Where file bytes live (port): a local directory by default, or S3-compatible object storage. */
export abstract class FileStorage {
  abstract put(organizationId: string, hash: string, bytes: Buffer): Promise<void>;
  abstract get(organizationId: string, hash: string): Promise<Buffer | null>;
  abstract exists(organizationId: string, hash: string): Promise<boolean>;
  abstract delete(organizationId: string, hash: string): Promise<void>;
  /** A URL the store itself serves the bytes at until it expires; null when the store has none (local disk). */
  presignedUrl(
    _organizationId: string,
    _hash: string,
    _options: { name: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    return Promise.resolve(null);
  }
}
