/** What went wrong, independent of transport. Only apps/api maps kinds to HTTP status codes. */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'precondition'
  | 'too-large'
  | 'upstream'
  | 'too-many'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra members for the error envelope (e.g. the conflicting pages of a merge). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string, id?: string) {
    super('not-found', id === undefined ? `${what} not found` : `${what} "${id}" not found`);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have permission to do this') {
    super('forbidden', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('conflict', message, details);
  }
}

export class PreconditionError extends DomainError {
  constructor(message: string) {
    super('precondition', message);
  }
}

/** The caller asked for more of something bounded per caller and time than it may (429). */
export class TooManyRequestsError extends DomainError {
  constructor(message: string) {
    super('too-many', message);
  }
}

/** A service Quire depends on for the answer (a translator, a model) failed: the request cannot be answered now. */
export class UpstreamError extends DomainError {
  constructor(message: string) {
    super('upstream', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Authentication required: send "Authorization: Bearer <token>"') {
    super('unauthenticated', message);
  }
}

/**
 * A read-modify-write whose write is guarded (it misses when another writer changed the row since it
 * was read): `attempt` reads, decides and writes, answering undefined when its write missed; it is run
 * again on fresh data, at most `attempts` times, then the caller gets a 409.
 */
export async function untilWritten<T>(attempt: () => Promise<T | undefined>, what: string, attempts = 5): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw new ConflictError(`${what} changed too often meanwhile; try again`);
}
