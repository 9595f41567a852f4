import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * An S3-speaking server on loopback (s3rver, files under .test-data): the AWS SDK v3 client runs against
 * it unmodified. Credentials are s3rver's fixed pair, set in the environment as the SDK reads them.
 */
export async function startS3(
  bucket = 'quire',
): Promise<{ endpoint: string; bucket: string; env: Record<string, string>; close(): Promise<void> }> {
  const directory = join(process.cwd(), '.test-data', `s3-${process.pid}-${Date.now()}`);
  mkdirSync(directory, { recursive: true });
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { QUIRE_FILE_STORAGE: 's3', QUIRE_S3_BUCKET: bucket, QUIRE_S3_ENDPOINT: endpoint, QUIRE_S3_REGION: 'us-east-1' },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
