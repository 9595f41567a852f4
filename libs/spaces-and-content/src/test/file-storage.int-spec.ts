import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileStorage } from '../domain/content/files';
import { LocalDiskFileStorage } from '../infrastructure/local-file-storage';
import { S3FileStorage } from '../infrastructure/s3-file-storage';
import { startS3 } from '../../../../test/support/s3';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The one contract of the FileStorage port, run against every adapter. */
function contract(name: string, presigns: boolean, make: () => Promise<{ storage: FileStorage; close: () => Promise<void> }>) {
  describe(`FileStorage contract: ${name}`, () => {
    let storage: FileStorage;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, close } = await make());
    });
    afterAll(async () => close());

    it('puts, gets, tells existence and deletes, per organization', async () => {
      const bytes = Buffer.from('hello, storage');
      const hash = sha(bytes);
      expect(await storage.exists('org1', hash)).toBe(false);
      expect(await storage.get('org1', hash)).toBeNull();
      await storage.put('org1', hash, bytes);
      await storage.put('org1', hash, bytes); // content-addressed: a second put is harmless
      expect(await storage.exists('org1', hash)).toBe(true);
      expect(await storage.get('org1', hash)).toEqual(bytes);
      expect(await storage.exists('org2', hash)).toBe(false); // another organization's namespace
      await storage.delete('org1', hash);
      await storage.delete('org1', hash); // deleting what is gone is fine
      expect(await storage.exists('org1', hash)).toBe(false);
      expect(await storage.get('org1', hash)).toBeNull();
    });

    it('keeps binary and large bytes exactly', async () => {
      const bytes = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
      const hash = sha(bytes);
      await storage.put('org1', hash, bytes);
      expect((await storage.get('org1', hash))!.equals(bytes)).toBe(true);
      const empty = Buffer.alloc(0);
      await storage.put('org1', sha(empty), empty);
      expect(await storage.get('org1', sha(empty))).toEqual(empty);
    });

    it('refuses addresses that are not an organization id and a SHA-256', async () => {
      const hash = sha(Buffer.from('x'));
      await expect(storage.put('../etc', hash, Buffer.from('x'))).rejects.toThrow(/invalid file address/);
      await expect(storage.get('org1', '../../passwd')).rejects.toThrow(/invalid file address/);
      await expect(storage.exists('org/1', hash)).rejects.toThrow(/invalid file address/);
    });

    it(presigns ? 'gives a presigned URL that serves the bytes' : 'has no presigned URLs', async () => {
      const bytes = Buffer.from('presign me');
      const hash = sha(bytes);
      await storage.put('org1', hash, bytes);
      const url = await storage.presignedUrl('org1', hash, { name: 'a b.txt', contentType: 'text/plain', expiresInSeconds: 60 });
      if (!presigns) return expect(url).toBeNull();
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
      expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''a%20b.txt");
      // Signed (SigV4 in the query) for as long as asked.
      expect(new URL(url!).searchParams.get('X-Amz-Expires')).toBe('60');
      expect(new URL(url!).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    });
  });
}

contract('local disk', false, async () => {
  const path = join(process.cwd(), '.test-data', `files-${process.pid}-${Date.now()}`);
  mkdirSync(path, { recursive: true });
  return {
    storage: new LocalDiskFileStorage({ path }),
    presigns: false,
    close: async () => rmSync(path, { recursive: true, force: true }),
  };
});

contract('S3 (s3rver on loopback, AWS SDK v3)', true, async () => {
  const s3 = await startS3();
  const storage = new S3FileStorage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint });
  return {
    storage,
    close: async () => {
      await storage.onModuleDestroy();
      await s3.close();
    },
  };
});
