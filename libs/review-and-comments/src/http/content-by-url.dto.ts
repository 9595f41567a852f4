import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { CollectionDto, RevisionPageDto, SpaceDto } from '@app/wire';
import { ChangeRequestDto } from './change-request.dto';

export class ContentByUrlQueryDto {
  /** URL to resolve: a web app URL of a collection, a space, a page, a change request or a page of one */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
}

/** Official getContentByUrl's answer: `{collection}`, or `{space, changeRequest?, page?}`. */
export class ContentByUrlDto {
  @ApiPropertyOptional({ type: CollectionDto }) collection?: CollectionDto;
  @ApiPropertyOptional({ type: SpaceDto }) space?: SpaceDto;
  @ApiPropertyOptional({ type: ChangeRequestDto }) changeRequest?: ChangeRequestDto;
  @ApiPropertyOptional({ type: RevisionPageDto }) page?: RevisionPageDto;
}
