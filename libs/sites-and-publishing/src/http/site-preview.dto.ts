import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { Optional, toStrictBool } from '@app/http-kit';

export class SitePreviewQueryDto {
  /** ID of the site space to preview (absent: the site's default one) */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) siteSpace?: string;
  /** Rison-encoded claims of the visitor to preview the site as, e.g. `(unsigned:(beta:!t))` */
  @Optional() @IsString() @MaxLength(4096) claims?: string;
  /** Whether to include draft content (default true; Quire has no draft content, so it changes nothing) */
  @ApiPropertyOptional({ type: Boolean, default: true }) @Optional() @Transform(toStrictBool) @IsBoolean() draft?: boolean;
  /** A URL of the site (its published URL or a page below it) to open the preview on */
  @Optional() @IsString() @MinLength(1) @MaxLength(2048) target?: string;
}

export class SitePreviewUrlDto {
  /** The preview link: it works for an hour */
  url: string;
}
