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

/**
 * Page bodies and file bytes as the collector sees them (port): each may carry the time it was first found
 * unreferenced; the collector removes it a grace period later if nothing references it then.
 */
export abstract class UnreferencedContent {
  /**
   * Claims file bytes for a write in the caller's transaction, before their bytes are stored: a claim clears
   * an unreferenced mark (holding the row until the transaction ends, so the collector cannot remove it in
   * between) and records bytes not known yet.
   */
  abstract claimBlobs(organizationId: string, hashes: string[]): Promise<void>;
  /** Records bytes a failed write left behind as unreferenced since `at` (in a transaction of its own). */
  abstract orphanBlobs(organizationId: string, hashes: string[], at: Date): Promise<void>;
  /** Marks up to `limit` bodies and `limit` bytes that nothing references (and clears the mark of those referenced again). */
  abstract mark(at: Date, limit: number): Promise<{ documents: number; files: number }>;
  /** Removes up to `limit` bodies marked before `cutoff` that nothing references (and their links). */
  abstract sweepDocuments(cutoff: Date, limit: number): Promise<number>;
  /**
   * Removes up to `limit` file bytes marked before `cutoff` that nothing references: their rows are deleted
   * and `remove` deletes the bytes, in one transaction (rolled back, and tried again next time, if it fails).
   */
  abstract sweepFiles(cutoff: Date, limit: number, remove: (organizationId: string, hash: string) => Promise<void>): Promise<number>;
}
