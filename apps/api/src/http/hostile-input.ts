import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { InvalidInputError, NotFoundError } from '@app/shared-kernel';
import { errorBody } from './error.filter';

/** What is wrong with a string PostgreSQL must never see (NUL) or that is not text (a lone surrogate). */
export function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  // String.prototype.isWellFormed (Node 20; not in the ES2023 lib typings): false for lone surrogates.
  if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) return 'must be valid Unicode text (it has a lone surrogate)';
  return null;
}

/** The first bad string (or key) inside a parsed body or query, as "path: problem". */
export function findHostileString(value: unknown, path: string): string | null {
  if (typeof value === 'string') {
    const p = stringProblem(value);
    return p && `${path || 'body'}: ${p}`;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findHostileString(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const where = path ? `${path}.${k}` : k;
      const key = stringProblem(k);
      if (key) return `${where}: the name ${key}`;
      const found = findHostileString(v, where);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Every query value and body string, for every route, before any handler: NUL characters and lone
 * surrogates answer 400 naming the field (the one place this is checked; DTOs need not repeat it).
 */
export function rejectHostileStrings(req: Request, res: Response, next: NextFunction): void {
  // An MCP call's body is JSON-RPC: its tool arguments reach the API operations they name, which refuse them
  // there (an MCP error with the same message), rather than a bare 400 the MCP client cannot read.
  const mcp = req.method === 'POST' && (req.path === '/mcp' || /^\/sites\/[^/]+\/~mcp$/.test(req.path));
  const problem = findHostileString(req.query, '') ?? (mcp ? null : findHostileString(req.body, ''));
  if (!problem) return next();
  res.status(400).json(errorBody(400, problem));
}

/** Ids are opaque, but they have a shape: 1 to 128 of these characters (base62 ids, numbers, hashes). */
export const ID_SHAPE = /^[A-Za-z0-9_.~-]{1,128}$/;

const RESOURCE_OF_PARAM: Record<string, string> = {
  organizationId: 'Organization',
  spaceId: 'Space',
  collectionId: 'Collection',
  changeRequestId: 'Change request',
  teamId: 'Team',
  userId: 'User',
  inviteId: 'Invite',
  samlProviderId: 'SAML provider',
  providerId: 'SAML provider',
  pageId: 'Page',
  fileId: 'File',
  revisionId: 'Revision',
  reviewId: 'Review',
  commentId: 'Comment',
  commentReplyId: 'Reply',
};

/**
 * Path parameters, checked once for every route before any query: an id that cannot exist (wrong
 * shape, NUL, invalid text) is a 404 naming the resource; another parameter with a bad string is a 400.
 */
@Injectable()
export class PathParamPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param') return value;
    // `@Param()` takes all path parameters at once: each is checked as if taken by name.
    if (!metadata.data && value && typeof value === 'object') {
      for (const [name, v] of Object.entries(value)) this.transform(v, { ...metadata, data: name });
      return value;
    }
    if (typeof value !== 'string' || !metadata.data) return value;
    const name = metadata.data;
    if (name.endsWith('Id')) {
      if (!ID_SHAPE.test(value))
        throw new NotFoundError(RESOURCE_OF_PARAM[name] ?? 'Resource', value.replace(/[^\x20-\x7e]/g, '?').slice(0, 128));
      return value;
    }
    const problem = stringProblem(value);
    if (problem) throw new InvalidInputError(`${name}: ${problem}`);
    return value;
  }
}
