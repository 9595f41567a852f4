import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Optional } from '@app/http-kit';
import { CLAIMS_JSON_MAX } from '../application/published-sites.service';
import { ShareKeyQueryDto, SiteDto } from './site.dto';
import { SiteStructureDto } from './site-structure.dto';

export class PublishedQueryDto extends ShareKeyQueryDto {
  /**
   * Quire extension: the visitor's claims as a JSON object (validated against the site's adaptive schema),
   * e.g. `{"isBeta":true,"unsigned":{"fromDocs":true}}`; conditions of sections and site spaces are evaluated
   * against them when adaptive content is enabled.
   */
  @Optional() @IsString() @MaxLength(CLAIMS_JSON_MAX) visitorClaims?: string;
  /**
   * Quire extension, for `visitor-auth` sites: the visitor's token, a JWT signed (HS256) with the site's
   * `privateKey` (GET …/publishing/auth) and carrying `exp`; its claims are the visitor's signed claims.
   */
  @Optional() @IsString() @MaxLength(8192) visitorToken?: string;
}

export class PublishedCustomizationsDto {
  @ApiProperty({ type: 'object', additionalProperties: true }) site: object;
  @ApiProperty({ type: 'object', additionalProperties: true }) siteSpaces: Record<string, object>;
}

export class PublishedSiteDto {
  @ApiProperty({ enum: ['published-content-site'] }) object: 'published-content-site';
  site: SiteDto;
  structure: SiteStructureDto;
  customizations: PublishedCustomizationsDto;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) scripts: never[];
}
