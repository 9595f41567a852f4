import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FileStorage } from '../domain/content/files';

/** Where the S3-compatible file storage keeps bytes; credentials come from the standard AWS environment. */
export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** MinIO, Ceph RGW, R2 …: their URL (path-style addressing then, unless told otherwise). */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Optional key prefix inside the bucket (e.g. `quire/`). */
  prefix?: string;
}

const SAFE = /^[A-Za-z0-9_-]+$/;

function missing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
}

/**
 * File bytes in S3-compatible object storage (the official AWS SDK v3 client): `<prefix><organization>/<sha256>`,
 * content-addressed, so a put of the same bytes is harmless and every API container sees every file.
 */
export class S3FileStorage extends FileStorage {
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    super();
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: options.forcePathStyle ?? true } : {}),
      ...(options.forcePathStyle !== undefined ? { forcePathStyle: options.forcePathStyle } : {}),
    });
  }

  private key(organizationId: string, hash: string): string {
    if (!SAFE.test(organizationId) || !/^[0-9a-f]{64}$/.test(hash)) throw new Error('invalid file address');
    return `${this.options.prefix ?? ''}${organizationId}/${hash}`;
  }

  async put(organizationId: string, hash: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(organizationId, hash), Body: bytes }));
  }

  async get(organizationId: string, hash: string): Promise<Buffer | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(organizationId, hash) }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (e) {
      if (missing(e)) return null;
      throw e;
    }
  }

  async exists(organizationId: string, hash: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(organizationId, hash) }));
      return true;
    } catch (e) {
      if (missing(e)) return false;
      throw e;
    }
  }

  async delete(organizationId: string, hash: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(organizationId, hash) }));
  }

  override async presignedUrl(
    organizationId: string,
    hash: string,
    o: { name: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: this.key(organizationId, hash),
      ResponseContentType: o.contentType,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(o.name)}`,
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.max(1, o.expiresInSeconds) });
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }
}
