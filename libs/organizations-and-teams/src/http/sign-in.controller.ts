import { Body, Controller, Delete, Get, HttpCode, HttpException, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { serialize as serializeCookie } from 'cookie';
import {
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  Links,
  listEnvelope,
  ListOf,
  Public,
  RequestLinks,
  WriteTransaction,
} from '@app/http-kit';
import { Actor, ForbiddenError, InvalidInputError, UnauthenticatedError } from '@app/shared-kernel';
import { OpenedSession, SessionsService, SignInThrottled } from '../application/sessions.service';
import { SESSION_COOKIE, sessionSecret } from '../domain/session';
import { SessionDto, SetPasswordDto, SignedInDto, SignInDto, SignInLinkDto, toSessionDto } from './sign-in.dto';

/** The session's id when the caller is signed in with the cookie (`session:<id>` as the actor's token id). */
function sessionIdOf(actor: Actor): string | null {
  return actor.tokenId.startsWith('session:') ? actor.tokenId.slice('session:'.length) : null;
}

/**
 * Signing in to the web app (Quire extensions, #50; docs/sign-in.md): a password or a one-time link opens a
 * server-side session in an HttpOnly, SameSite=Strict cookie for `/v1`; the answer carries the CSRF token the
 * app sends with every call. Sessions are listed and ended by their user.
 */
@ApiTags('sign-in')
@Controller()
export class SignInController {
  constructor(private readonly sessions: SessionsService) {}

  @Public()
  @Post('auth/sign-in')
  @HttpCode(200)
  @ApiOperation({ operationId: 'signIn', summary: 'Quire extension: sign in with email and password (sets the session cookie)' })
  @ApiOkResponse({ type: SignedInDto })
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'Wrong email or password' })
  @ApiTooManyRequestsResponse({ type: ErrorDto, description: 'Too many failed sign-ins from this address' })
  async signIn(
    @Body() body: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @RequestLinks() links: Links,
  ): Promise<SignedInDto> {
    fromQuire(req, links);
    try {
      const opened = await this.sessions.signIn(body.email, body.password, req.ip ?? req.socket.remoteAddress ?? '', req.get('user-agent'));
      return this.signedIn(opened, req, res, links);
    } catch (e) {
      if (!(e instanceof SignInThrottled)) throw e;
      res.setHeader('Retry-After', String(e.retryAfterSeconds));
      throw new HttpException(e.message, 429);
    }
  }

  @Public()
  @Post('auth/sign-in/link')
  @HttpCode(200)
  @ApiOperation({ operationId: 'signInWithLink', summary: 'Quire extension: sign in with a one-time link (sets the session cookie)' })
  @ApiOkResponse({ type: SignedInDto })
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'The link was used, expired, or never was' })
  async signInWithLink(
    @Body() body: SignInLinkDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @RequestLinks() links: Links,
  ): Promise<SignedInDto> {
    fromQuire(req, links);
    return this.signedIn(await this.sessions.signInWithLink(body.token, req.get('user-agent')), req, res, links);
  }

  /**
   * No CSRF token needed (it is what answers one): the app asks it after a reload. Not signed in is an answer,
   * not an error: 204 (a browser's console stays quiet), and an ended session's cookie is cleared.
   */
  @Public()
  @Get('auth/session')
  @ApiOperation({ operationId: 'getCurrentSession', summary: 'Quire extension: the session of the cookie, its user and CSRF token' })
  @ApiOkResponse({ type: SignedInDto })
  @ApiNoContentResponse({ description: 'Not signed in (no session cookie, or its session ended)' })
  async current(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @RequestLinks() links: Links,
  ): Promise<SignedInDto | undefined> {
    res.setHeader('Cache-Control', 'no-store');
    const secret = sessionSecret(req.headers.cookie);
    try {
      if (!secret) throw new UnauthenticatedError('Not signed in');
      const { session } = await this.sessions.authenticate(secret);
      return this.dto(await this.sessions.userOf(session.userId), session, secret);
    } catch (e) {
      if (!(e instanceof UnauthenticatedError)) throw e;
      if (secret) res.setHeader('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { ...cookieOptions(req, links), maxAge: 0 }));
      res.status(204);
      return undefined;
    }
  }

  @WriteTransaction()
  @Post('auth/sign-out')
  @HttpCode(204)
  @ApiStandardErrors()
  @ApiOperation({ operationId: 'signOut', summary: "Quire extension: end this request's session and clear its cookie" })
  @ApiNoContentResponse()
  async signOut(
    @CurrentActor() actor: Actor,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @RequestLinks() links: Links,
  ): Promise<void> {
    const id = sessionIdOf(actor);
    if (id) await this.sessions.revoke(actor, id);
    res.setHeader('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { ...cookieOptions(req, links), maxAge: 0 }));
  }

  @Get('auth/sessions')
  @ApiStandardErrors()
  @ApiOperation({ operationId: 'listSessions', summary: "Quire extension: the caller's signed-in sessions, newest first" })
  @ApiOkResponse({ type: ListOf(SessionDto) })
  async list(@CurrentActor() actor: Actor) {
    const items = await this.sessions.list(actor);
    return listEnvelope({ items, count: items.length }, (s) => toSessionDto(s, sessionIdOf(actor)));
  }

  @WriteTransaction()
  @Delete('auth/sessions/:sessionId')
  @HttpCode(204)
  @ApiStandardErrors()
  @ApiOperation({ operationId: 'revokeSession', summary: "Quire extension: end one of the caller's sessions" })
  @ApiNoContentResponse()
  async revoke(@CurrentActor() actor: Actor, @Param('sessionId') sessionId: string): Promise<void> {
    await this.sessions.revoke(actor, sessionId);
  }

  @WriteTransaction()
  @Delete('auth/sessions')
  @HttpCode(204)
  @ApiStandardErrors()
  @ApiOperation({ operationId: 'revokeAllSessions', summary: 'Quire extension: sign out everywhere (every session of the caller ends)' })
  @ApiNoContentResponse()
  async revokeAll(@CurrentActor() actor: Actor): Promise<void> {
    await this.sessions.revokeAll(actor);
  }

  @WriteTransaction()
  @Put('user/password')
  @HttpCode(204)
  @ApiStandardErrors()
  @ApiOperation({
    operationId: 'setPassword',
    summary: "Quire extension: set the caller's password (the current one is needed to change it)",
  })
  @ApiNoContentResponse()
  async setPassword(@CurrentActor() actor: Actor, @Body() body: SetPasswordDto): Promise<void> {
    await this.sessions.setPassword(actor, body.currentPassword, body.newPassword);
  }

  private signedIn(opened: OpenedSession, req: Request, res: Response, links: Links): SignedInDto {
    setSessionCookie(req, res, links, opened.secret);
    return this.dto(opened.user, opened.session, opened.secret);
  }

  private dto(user: { id: string; email: string; displayName: string }, session: OpenedSession['session'], secret: string): SignedInDto {
    return {
      object: 'signed-in',
      user: user.id,
      email: user.email,
      displayName: user.displayName,
      session: toSessionDto(session, session.id),
      csrfToken: this.sessions.csrfToken(secret),
    };
  }
}

/** Sets a new session's cookie on the answer (a sign-in, an SSO login that began at the app); never cached. */
export function setSessionCookie(req: Request, res: Response, links: Links, secret: string): void {
  // The browser keeps the cookie 90 days; the server ends the session 14 days after its last use (renewed by use).
  res.setHeader('Set-Cookie', serializeCookie(SESSION_COOKIE, secret, { ...cookieOptions(req, links), maxAge: COOKIE_MAX_AGE_S }));
  res.setHeader('Cache-Control', 'no-store');
}

/** The session cookie: HttpOnly, SameSite=Strict, for the API's paths only, Secure over HTTPS (Quire's URL's, or the request's). */
function cookieOptions(req: Request, links: Links) {
  return { httpOnly: true, sameSite: 'strict' as const, path: '/v1', secure: req.secure || links.origin.startsWith('https:') };
}

const COOKIE_MAX_AGE_S = 90 * 86_400;

/**
 * A sign-in comes from Quire's own pages (login CSRF: another site's page must not sign a browser in to an
 * account of its choosing): JSON only (a form of another site cannot send it without CORS), and a browser's
 * Origin, when sent, is Quire's.
 */
function fromQuire(req: Request, links: Links): void {
  if (!req.is('application/json')) throw new InvalidInputError('A sign-in is sent as JSON (Content-Type: application/json)');
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== new URL(links.origin).origin) throw new ForbiddenError('A sign-in comes from Quire’s own pages');
}
