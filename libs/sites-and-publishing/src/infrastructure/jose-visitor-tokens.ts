import { Injectable } from '@nestjs/common';
import { errors, jwtVerify } from 'jose';
import { VisitorTokens } from '../domain/site-repository';

const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/**
 * Visitor tokens of `visitor-auth` sites: JWTs signed with HS256 and the site's key (as GitBook's
 * custom visitor-authentication backends sign them), checked with `jose`. A token must carry `exp`;
 * its claims are what is left once the registered ones (iss, sub, exp …) are taken out.
 */
@Injectable()
export class JoseVisitorTokens extends VisitorTokens {
  async verify(token: string, key: string, now: Date): Promise<Record<string, unknown> | null> {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(key), {
        algorithms: ['HS256'],
        currentDate: now,
        requiredClaims: ['exp'],
      });
      return Object.fromEntries(Object.entries(payload).filter(([name]) => !REGISTERED.has(name)));
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }
}
