import { Injectable } from '@nestjs/common';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Db } from '@app/persistence';
import {
  PasswordHasher,
  PasswordRepository,
  Session,
  SessionRepository,
  SignInLink,
  SignInLinkRepository,
  type SignInMethod,
} from '../domain/session';

interface SessionRow {
  id: string;
  user_id: string;
  hash: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
  method: SignInMethod;
  scope: string | null;
}

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  userId: r.user_id,
  hash: r.hash,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  userAgent: r.user_agent,
  method: r.method,
  scope: r.scope,
});

@Injectable()
export class SqlSessionRepository extends SessionRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(s: Session): Promise<void> {
    await this.db.query(
      `INSERT INTO sessions (id, user_id, hash, created_at, last_seen_at, expires_at, revoked_at, user_agent, method, scope)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [s.id, s.userId, s.hash, s.createdAt, s.lastSeenAt, s.expiresAt, s.revokedAt, s.userAgent, s.method, s.scope],
    );
  }

  async findByHash(hash: string): Promise<Session | null> {
    const rows: SessionRow[] = await this.db.query('SELECT * FROM sessions WHERE hash = $1', [hash]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  async listActive(userId: string, now: Date): Promise<Session[]> {
    const rows: SessionRow[] = await this.db.query(
      'SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id DESC LIMIT 1000',
      [userId, now],
    );
    return rows.map(toSession);
  }

  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.db.execute('UPDATE sessions SET last_seen_at = $2, expires_at = $3 WHERE id = $1 AND revoked_at IS NULL', [
      id,
      lastSeenAt,
      expiresAt,
    ]);
  }

  async revoke(userId: string, id: string, at: Date): Promise<string | null> {
    const rows: { hash: string }[] = await this.db.query(
      // (A CTE: an UPDATE … RETURNING through TypeORM answers its rows with a count.)
      'WITH u AS (UPDATE sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3 RETURNING hash) SELECT * FROM u',
      [id, userId, at],
    );
    return rows[0]?.hash ?? null;
  }

  async revokeAll(userId: string, at: Date, except?: string): Promise<string[]> {
    const rows: { hash: string }[] = await this.db.query(
      'WITH u AS (UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 AND id <> $3 RETURNING hash) SELECT * FROM u',
      [userId, at, except ?? ''],
    );
    return rows.map((r) => r.hash);
  }
}

@Injectable()
export class SqlPasswordRepository extends PasswordRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async get(userId: string): Promise<string | null> {
    const rows: { hash: string }[] = await this.db.query('SELECT hash FROM user_passwords WHERE user_id = $1', [userId]);
    return rows[0]?.hash ?? null;
  }

  async set(userId: string, hash: string, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET hash = $2, updated_at = $3`,
      [userId, hash, at],
    );
  }
}

@Injectable()
export class SqlSignInLinkRepository extends SignInLinkRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(l: SignInLink): Promise<void> {
    await this.db.query('INSERT INTO sign_in_links (hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      l.hash,
      l.userId,
      l.createdAt,
      l.expiresAt,
    ]);
  }

  async consume(hash: string, at: Date): Promise<string | null> {
    const rows: { user_id: string }[] = await this.db.query(
      'WITH u AS (UPDATE sign_in_links SET used_at = $2 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id) SELECT * FROM u',
      [hash, at],
    );
    return rows[0]?.user_id ?? null;
  }
}

/** argon2id through @node-rs/argon2 (prebuilt binaries), with its defaults (19 MiB, 2 passes: OWASP's minimum). */
@Injectable()
export class Argon2PasswordHasher extends PasswordHasher {
  hash(password: string): Promise<string> {
    return argonHash(password);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argonVerify(hash, password);
    } catch {
      return false; // a stored value that is not an argon2 hash verifies nothing
    }
  }
}
