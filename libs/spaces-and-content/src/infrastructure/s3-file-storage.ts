import type { S3Client } from '@aws-sdk/client-s3';
import { FileStorage } from '../domain/content/files';
import type { S3StorageOptions } from '../application/file-storage-settings';

// The AWS SDK is large: it is loaded only by a process that stores files on S3.
type Sdk = typeof import('@aws-sdk/client-s3');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');

/** Where the S3-compatible file storage keeps bytes; credentials come from the standard AWS environment. */
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
  private loaded: Promise<{ sdk: Sdk; client: S3Client }> | null = null;

  constructor(private readonly options: S3StorageOptions) {
    super();
  }

  private sdk(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.options.region,
        ...(this.options.endpoint ? { endpoint: this.options.endpoint, forcePathStyle: this.options.forcePathStyle ?? true } : {}),
        ...(this.options.forcePathStyle !== undefined ? { forcePathStyle: this.options.forcePathStyle } : {}),
      }),
    }));
    return this.loaded;
  }

  private key(organizationId: string, hash: string): string {
    if (!SAFE.test(organizationId) || !/^[0-9a-f]{64}$/.test(hash)) throw new Error('invalid file address');
    return `${this.options.prefix ?? ''}${organizationId}/${hash}`;
  }

  async put(organizationId: string, hash: string, bytes: Buffer): Promise<void> {
    const key = this.key(organizationId, hash);
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: bytes }));
  }

  async get(organizationId: string, hash: string): Promise<Buffer | null> {
    const key = this.key(organizationId, hash);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (e) {
      if (missing(e)) return null;
      throw e;
    }
  }

  async exists(organizationId: string, hash: string): Promise<boolean> {
    const key = this.key(organizationId, hash);
    const { sdk, client } = await this.sdk();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (e) {
      if (missing(e)) return false;
      throw e;
    }
  }

  async delete(organizationId: string, hash: string): Promise<void> {
    const key = this.key(organizationId, hash);
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  override async presignedUrl(
    organizationId: string,
    hash: string,
    o: { name: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    const key = this.key(organizationId, hash);
    const { sdk, client } = await this.sdk();
    const presigner: Presigner = await import('@aws-sdk/s3-request-presigner');
    const command = new sdk.GetObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ResponseContentType: o.contentType,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(o.name)}`,
    });
    return presigner.getSignedUrl(client, command, { expiresIn: Math.max(1, o.expiresInSeconds) });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.loaded) (await this.loaded).client.destroy();
  }
}
