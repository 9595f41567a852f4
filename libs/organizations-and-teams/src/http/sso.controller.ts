import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSeeOtherResponse,
  ApiTags,
} from '@nestjs/swagger';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { Request, Response } from 'express';
import { setSessionCookie } from './sign-in.controller';
import { Actor, DomainError, ForbiddenError } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  Public,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { SsoService } from '../application/sso.service';
import {
  CreateSamlProviderDto,
  SamlProviderDto,
  SamlResponseDto,
  StartSamlLoginQueryDto,
  serviceProviderUrls,
  SsoLoginInfoListDto,
  SsoLoginResultDto,
  toSamlProviderDto,
  UpdateSamlProviderDto,
} from './sso.dto';

function patchOf(body: UpdateSamlProviderDto) {
  const { defaultTeam, ...rest } = body;
  return { ...rest, defaultTeamId: defaultTeam };
}

@ApiTags('organization-saml')
@ApiStandardErrors()
@Controller('orgs/:organizationId')
export class SamlProvidersController {
  constructor(private readonly sso: SsoService) {}

  @Get('saml')
  @ApiOperation({ operationId: 'listSAMLProvidersInOrganizationById', summary: 'List SAML providers (admins)' })
  @ApiOkResponse({ type: ListOf(SamlProviderDto) })
  async list(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    return listEnvelope(await this.sso.list(actor, org, q.toPageRequest()), (v) => toSamlProviderDto(v, links));
  }

  @WriteTransaction()
  @Post('saml')
  @ApiOperation({ operationId: 'createOrganizationSAMLProvider', summary: 'Create a SAML provider (admins)' })
  @ApiCreatedResponse({ type: SamlProviderDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Body() body: CreateSamlProviderDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const dto = toSamlProviderDto(await this.sso.create(actor, org, { ...patchOf(body), label: body.label }), links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get('saml/:samlProviderId')
  @ApiOperation({ operationId: 'getOrganizationSAMLProviderById', summary: 'Get a SAML provider (admins)' })
  @ApiOkResponse({ type: SamlProviderDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('samlProviderId') id: string,
    @RequestLinks() links: Links,
  ) {
    return toSamlProviderDto(await this.sso.get(actor, org, id), links);
  }

  @WriteTransaction()
  @Patch('saml/:samlProviderId')
  @ApiOperation({ operationId: 'updateOrganizationSAMLProvider', summary: 'Update a SAML provider (admins)' })
  @ApiOkResponse({ type: SamlProviderDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('samlProviderId') id: string,
    @Body() body: UpdateSamlProviderDto,
    @RequestLinks() links: Links,
  ) {
    return toSamlProviderDto(await this.sso.update(actor, org, id, patchOf(body)), links);
  }

  @WriteTransaction()
  @Delete('saml/:samlProviderId')
  @ApiDeleteOperation('deleteOrganizationSAMLProvider', 'Delete a SAML provider (admins)', 'SAML provider')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('samlProviderId') id: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    setDeleteStatus(res, await this.sso.delete(actor, org, id));
  }

  @Get('sso')
  @ApiOperation({ operationId: 'listSSOProviderLoginsInOrganization', summary: 'List the SSO logins of an organization (members)' })
  @ApiOkResponse({ type: SsoLoginInfoListDto })
  async logins(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @RequestLinks() links: Links,
  ): Promise<SsoLoginInfoListDto> {
    const providers = await this.sso.logins(actor, org);
    return { items: providers.map((p) => ({ id: p.id, label: p.label, startURL: serviceProviderUrls(links, p.id).startURL })) };
  }
}

/** The RelayState of a login that began at the web app (then the browser's nonce): it ends in an app session, not an API token. */
const APP_RELAY_STATE = 'app.';
/** The cookie that ties an app login to the browser that began it (its nonce, for ten minutes). */
const SSO_BROWSER_COOKIE = 'quire_sso';

/**
 * Sent back with the identity provider's cross-site POST: SameSite=None, which browsers take only when Secure
 * (Quire on HTTPS); over plain HTTP it is Lax, and an app login then works only with an identity provider on
 * the same site.
 */
function ssoCookieOptions(req: Request, links: Links, maxAge: number) {
  const secure = req.secure || links.origin.startsWith('https:');
  return { httpOnly: true, secure, sameSite: secure ? ('none' as const) : ('lax' as const), path: '/v1/sso/saml', maxAge };
}

/** The browser side of SAML: public (no Bearer token), addressed by provider id. */
@ApiTags('sso')
@Public()
@Controller('sso/saml/:providerId')
export class SsoLoginController {
  constructor(private readonly sso: SsoService) {}

  @Get('start')
  @ApiOperation({
    operationId: 'startSamlLogin',
    summary: 'Redirects the browser to the identity provider with an AuthnRequest (HTTP-Redirect binding)',
  })
  @ApiFoundResponse({ description: 'Redirect to the identity provider' })
  async start(
    @Param('providerId') id: string,
    @Query() q: StartSamlLoginQueryDto,
    @RequestLinks() links: Links,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    let relayState = '';
    if (q.to === 'app') {
      // Bound to this browser: the ACS opens an app session only where the login began (login CSRF: a response
      // an attacker got for their own account, posted from their page, must not sign the victim's browser in).
      const nonce = randomBytes(24).toString('base64url');
      res.setHeader('Set-Cookie', serializeCookie(SSO_BROWSER_COOKIE, nonce, ssoCookieOptions(req, links, 600)));
      relayState = `${APP_RELAY_STATE}${nonce}`;
    }
    res.redirect(302, await this.sso.startLogin(id, serviceProviderUrls(links, id), relayState));
  }

  @Post('acs')
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: SamlResponseDto })
  @ApiOperation({
    operationId: 'consumeSamlResponse',
    summary:
      'Assertion Consumer Service: verifies the SAMLResponse and returns an API token; a login begun at the web app (start?to=app) opens an app session and redirects to the app',
  })
  @ApiOkResponse({ type: SsoLoginResultDto })
  @ApiSeeOtherResponse({ description: 'A login begun at the web app: the session cookie set, on to the organization in the app' })
  async acs(
    @Param('providerId') id: string,
    @Body() body: SamlResponseDto,
    @RequestLinks() links: Links,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const sp = serviceProviderUrls(links, id);
    if (body.RelayState?.startsWith(APP_RELAY_STATE)) {
      // A person in a browser: a refusal goes back to the app's sign-in screen, which says why.
      try {
        const began = parseCookies(req.headers.cookie ?? '')[SSO_BROWSER_COOKIE] ?? '';
        const nonce = body.RelayState.slice(APP_RELAY_STATE.length);
        const same = began.length === nonce.length && nonce.length > 0 && timingSafeEqual(Buffer.from(began), Buffer.from(nonce));
        if (!same) throw new ForbiddenError('This sign-in did not begin in this browser: start it again from the sign-in screen');
        const login = await this.sso.completeLogin(id, sp, body.SAMLResponse, { userAgent: req.headers['user-agent'] });
        setSessionCookie(req, res, links, login.session!.secret);
        res.append('Set-Cookie', serializeCookie(SSO_BROWSER_COOKIE, '', ssoCookieOptions(req, links, 0)));
        res.redirect(303, links.app(`/o/${login.organizationId}`));
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, links.app(`/sign-in?sso=${encodeURIComponent(id)}&error=${encodeURIComponent(e.message.slice(0, 300))}`));
      }
      return;
    }
    const login = await this.sso.completeLogin(id, sp, body.SAMLResponse);
    const answer: SsoLoginResultDto = {
      object: 'sso-login',
      token: login.token!,
      expiresAt: login.expiresAt.toISOString(),
      user: login.userId,
      email: login.email,
      organization: login.organizationId,
      role: login.role,
    };
    res.status(200).json(answer);
  }

  @Get('metadata')
  @Header('Content-Type', 'application/samlmetadata+xml')
  @ApiOperation({ operationId: 'samlServiceProviderMetadata', summary: "Quire's SAML service-provider metadata for this provider" })
  @ApiOkResponse({ description: 'SAML metadata XML' })
  async metadata(@Param('providerId') id: string, @RequestLinks() links: Links): Promise<string> {
    const provider = await this.sso.providerForMetadata(id);
    return this.sso.metadata(provider, serviceProviderUrls(links, id));
  }
}
