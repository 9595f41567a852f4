/** Where file bytes go, as the app's configuration says (the module picks the FileStorage adapter from it). */

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** MinIO, Ceph RGW, R2 …: their URL (path-style addressing then, unless told otherwise). */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Optional key prefix inside the bucket (e.g. `quire/`). */
  prefix?: string;
}

/** Where the local-disk file storage keeps bytes (under the data dir by default). */
export abstract class FileStorageDirectory {
  abstract readonly path: string;
}

/** Which file storage: local disk (default), or S3-compatible object storage when `s3` is set. */
export abstract class FileStorageSettings {
  abstract readonly s3: S3StorageOptions | null;
}
