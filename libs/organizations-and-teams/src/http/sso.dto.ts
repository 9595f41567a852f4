import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUrl, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { Role, ROLES } from '@app/shared-kernel';
import { Links, Optional } from '@app/http-kit';
import { SAML_CERTIFICATE_MAX, SAML_ENTITY_ID_MAX, SAML_LABEL_MAX, SAML_SSO_URL_MAX, ServiceProviderUrls } from '../domain/saml-provider';
import type { SamlProviderView } from '../application/sso.service';
import { TeamDto, toTeamDto } from '@app/wire';

export class CreateSamlProviderDto {
  @IsString() @MinLength(1) @MaxLength(SAML_LABEL_MAX) label: string;
  /** The identity provider's entity id (Issuer) */
  @Optional() @IsString() @MinLength(1) @MaxLength(SAML_ENTITY_ID_MAX) entityID?: string;
  /** The identity provider's signing certificate, X.509 PEM */
  @Optional() @IsString() @MaxLength(SAML_CERTIFICATE_MAX) certificate?: string;
  /** The identity provider's single sign-on URL */
  @ApiPropertyOptional({ format: 'uri', maxLength: SAML_SSO_URL_MAX })
  @Optional()
  @IsString()
  @MaxLength(SAML_SSO_URL_MAX)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
  ssoURL?: string;
  /** Id of a team of the organization that people who sign in join */
  @Optional() @IsString() @MaxLength(100) defaultTeam?: string;
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'Role of people who sign in for the first time (null: the organization default)',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES)
  defaultRole?: Role | null;
}

export class UpdateSamlProviderDto extends PartialType(CreateSamlProviderDto, { skipNullProperties: false }) {}

export class ServiceProviderDto {
  @ApiProperty({ format: 'uri', description: 'Assertion Consumer Service URL to give the identity provider' }) acsURL: string;
  @ApiProperty({ format: 'uri', description: 'Where a browser starts a login' }) startURL: string;
  @ApiProperty({ description: "Quire's entity id for this provider (also its metadata URL)" }) entityID: string;
}

export class SamlProviderUrlsDto {
  @ApiProperty({ format: 'uri' }) location: string;
}

export class SamlProviderDto {
  @ApiProperty({ enum: ['saml-provider'] }) object: 'saml-provider';
  id: string;
  label: string;
  /** Empty until configured */
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: TeamDto;
  @ApiProperty({ enum: ROLES, nullable: true }) defaultRole: Role | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ enum: ['pending', 'active'], description: 'pending until fully configured and a login completed' }) status:
    'pending' | 'active';
  service: ServiceProviderDto;
  urls: SamlProviderUrlsDto;
}

export function serviceProviderUrls(links: Links, providerId: string): ServiceProviderUrls {
  return {
    acsURL: links.api(`/sso/saml/${providerId}/acs`),
    startURL: links.api(`/sso/saml/${providerId}/start`),
    entityID: links.api(`/sso/saml/${providerId}/metadata`),
  };
}

export function toSamlProviderDto(v: SamlProviderView, links: Links): SamlProviderDto {
  const p = v.provider;
  const dto: SamlProviderDto = {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? '',
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    defaultRole: p.defaultRole,
    createdAt: p.createdAt.toISOString(),
    status: p.status,
    service: serviceProviderUrls(links, p.id),
    urls: { location: links.api(`/orgs/${p.organizationId}/saml/${p.id}`) },
  };
  if (v.defaultTeam) dto.defaultTeam = toTeamDto(v.defaultTeam, { admin: true, view: true });
  return dto;
}

export class SsoLoginInfoDto {
  id: string;
  label: string;
  @ApiProperty({ format: 'uri' }) startURL: string;
}

export class SsoLoginInfoListDto {
  @ApiProperty({ type: [SsoLoginInfoDto] }) items: SsoLoginInfoDto[];
}

/** Where a login goes when it completes: `app`, a web-app session (else the ACS answers an API token). */
export class StartSamlLoginQueryDto {
  @ApiPropertyOptional({ enum: ['app'], description: '`app`: the login ends in a web-app session and the app (a Quire extension)' })
  @Optional()
  @IsIn(['app'])
  to?: 'app';
}

export class SamlResponseDto {
  /** The base64 SAMLResponse the identity provider POSTed */
  @IsString() @MinLength(1) @MaxLength(1_000_000) SAMLResponse: string;
  @Optional() @IsString() @MaxLength(4096) RelayState?: string;
}

export class SsoLoginResultDto {
  @ApiProperty({ enum: ['sso-login'] }) object: 'sso-login';
  /** A new API token for the signed-in user (shown once) */
  token: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  user: string;
  email: string;
  organization: string;
  @ApiProperty({ enum: ROLES, nullable: true, description: 'null: a guest' }) role: Role | null;
}
