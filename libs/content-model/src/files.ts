/** A file of a revision. Bytes are stored content-addressed (by SHA-256) in the file storage. */
export interface FileNode {
  id: string;
  name: string;
  contentType: string;
  size: number;
  hash: string;
  dimensions?: { width: number; height: number };
}

export const FILE_MAX_BYTES = 1024 * 1024;
export const FILE_NAME_MAX = 256;
