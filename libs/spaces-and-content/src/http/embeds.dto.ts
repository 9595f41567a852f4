import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class EmbedQueryDto {
  /** URL to resolve: an absolute http or https URL */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
}

/** Official Embed: a link card, or the provider's HTML (`rich`, sanitized: https iframes and plain markup). */
export class EmbedDto {
  @ApiProperty({ enum: ['link', 'rich'] }) type: 'link' | 'rich';
  title: string;
  /** The site it comes from */
  site: string;
  icon?: string;
  /** The provider's HTML (type rich) */
  @ApiPropertyOptional() html?: string;
}
