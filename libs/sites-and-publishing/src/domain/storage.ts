import { InvalidInputError } from '@app/shared-kernel';

/**
 * Files an organization uploads for its sites (#50, the official `generateStorageUploadURL`): a logo, an icon,
 * a font. The official kinds; `import_file` (a file to import content from) has no use here: content comes in
 * through Git Sync or the content API.
 */
export const STORAGE_UPLOAD_KINDS = ['customization_font', 'import_file', 'organization_file'] as const;
export type StorageUploadKind = (typeof STORAGE_UPLOAD_KINDS)[number];

/** What each kind may hold, by declared MIME type, and how large. */
const ACCEPTED: Record<Exclude<StorageUploadKind, 'import_file'>, { types: string[]; maxBytes: number }> = {
  organization_file: {
    types: [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/avif',
      'image/svg+xml',
      'image/x-icon',
      'image/vnd.microsoft.icon',
    ],
    maxBytes: 2 * 1024 * 1024,
  },
  // The formats a font's faces may have (official `FontSource.format`): every browser Quire's sites support reads them.
  customization_font: { types: ['font/woff2', 'font/woff'], maxBytes: 5 * 1024 * 1024 },
};

/** The signature a font file starts with (WOFF 1.0 §3, WOFF 2.0 §3): a file of another kind is refused. */
const FONT_SIGNATURES: Record<string, string> = { 'font/woff2': 'wOF2', 'font/woff': 'wOFF' };

/** What one organization may keep in uploads (files and URLs still waiting), in bytes. */
export const STORAGE_ORGANIZATION_MAX_BYTES = 100 * 1024 * 1024;

/** How long a signed upload URL works. */
export const UPLOAD_URL_MS = 60 * 60_000;
export const STORAGE_NAME_MAX = 100;

export interface StorageFile {
  /** `{organizationId}/{id}/{name}`: where the file is served, and the official `key`. */
  key: string;
  organizationId: string;
  kind: StorageUploadKind;
  name: string;
  contentType: string;
  size: number;
  /** The SHA-256 of the upload URL's token: the URL works once, until `expiresAt`. */
  tokenHash: string;
  expiresAt: Date;
  createdBy: string;
  createdAt: Date;
  /** Set once the bytes are in. */
  uploadedAt: Date | null;
}

/**
 * The file an upload URL is asked for, checked: a known kind that Quire keeps, a type that kind accepts, a
 * size within its bound, and a name kept as a safe path segment (other characters become `-`).
 */
export function checkUploadRequest(input: { file: { name: string; type: string; size: number }; kind: string }): {
  kind: StorageUploadKind;
  name: string;
  contentType: string;
  size: number;
} {
  const kind = input.kind as StorageUploadKind;
  if (!STORAGE_UPLOAD_KINDS.includes(kind)) throw new InvalidInputError(`kind must be one of ${STORAGE_UPLOAD_KINDS.join(', ')}`);
  if (kind === 'import_file')
    throw new InvalidInputError('kind import_file is not kept here: content comes in through Git Sync or the content API');
  const accepted = ACCEPTED[kind];
  const contentType = input.file.type.toLowerCase();
  if (!accepted.types.includes(contentType))
    throw new InvalidInputError(`file.type must be one of ${accepted.types.join(', ')} for ${kind}`);
  const size = input.file.size;
  if (!Number.isInteger(size) || size < 1 || size > accepted.maxBytes)
    throw new InvalidInputError(`file.size must be a whole number of bytes from 1 to ${accepted.maxBytes} for ${kind}`);
  const name = input.file.name
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, STORAGE_NAME_MAX);
  if (!name) throw new InvalidInputError('file.name must have a letter or a digit');
  return { kind, name, contentType, size };
}

/** The uploaded bytes, checked against the declared type where the type has a signature (fonts). */
export function checkUploadedBytes(contentType: string, bytes: Buffer): void {
  const signature = FONT_SIGNATURES[contentType];
  if (signature && bytes.subarray(0, 4).toString('latin1') !== signature)
    throw new InvalidInputError(`The file is not a ${contentType} file: it must start with the signature ${signature}`);
}

export abstract class StorageRepository {
  /**
   * Records a new upload URL, unless the organization's files and live upload URLs would then hold more than
   * `maxBytes` (false). Upload URLs that expired unused go first.
   */
  abstract insert(file: StorageFile, maxBytes: number): Promise<boolean>;
  /** The file whose upload URL has this token hash, if it is still waiting for its bytes. */
  abstract pending(tokenHash: string): Promise<StorageFile | null>;
  /** Stores the bytes of a pending file before it expires; false when it is no longer pending (used, expired, removed). */
  abstract complete(key: string, bytes: Buffer, at: Date): Promise<boolean>;
  /** The files among `keys` that the organization has uploaded (bytes in), without their bytes. */
  abstract uploaded(organizationId: string, keys: string[]): Promise<StorageFile[]>;
  /** An uploaded file and its bytes. */
  abstract read(key: string): Promise<{ file: StorageFile; bytes: Buffer } | null>;
}
