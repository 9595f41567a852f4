/** A stored API token: only its SHA-256 hash and a short visible prefix are kept. */
export interface ApiToken {
  id: string;
  userId: string;
  label: string;
  /** First characters of the token, shown in listings so a user can tell tokens apart. */
  prefix: string;
  hash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The organization an SSO-issued token is limited to; null for tokens with the user's full reach. */
  organizationId: string | null;
}

export abstract class TokenRepository {
  abstract insert(token: ApiToken): Promise<void>;
  abstract findByHash(hash: string): Promise<ApiToken | null>;
  abstract findById(id: string): Promise<ApiToken | null>;
  abstract listByUser(userId: string): Promise<ApiToken[]>;
  abstract markRevoked(id: string, at: Date): Promise<void>;
}

/** Token format: `qr_` + 40 base62 characters; the prefix is `qr_` + the first 8 of them. */
export const TOKEN_PREFIX = 'qr_';
export const TOKEN_VISIBLE_LENGTH = TOKEN_PREFIX.length + 8;

export function isUsable(token: ApiToken, now: Date): boolean {
  if (token.revokedAt) return false;
  return token.expiresAt === null || token.expiresAt.getTime() > now.getTime();
}
