import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto, Optional, toStrictBool } from '@app/http-kit';
import { CONDITION_MAX, DESCRIPTION_MAX, GROUP_TITLE, ICON_MAX, PATH_MAX, SECTION_TITLE } from '../domain/site';
import { SpaceDto } from '@app/wire';

const POINTER_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;

export class ListWithShareKeyQueryDto extends ListQueryDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) shareKey?: string;
}

export class ListSiteSpacesQueryDto extends ListWithShareKeyQueryDto {
  /** true: only the default site space; false: only the others; absent: all */
  @Optional() @Transform(toStrictBool) @IsBoolean() default?: boolean;
}

export class AddSectionDto {
  /** The space added to the section as its first site space */
  @IsString() @MinLength(1) @MaxLength(200) spaceId: string;
  /** Title of the section (default: the space's title) */
  @ApiPropertyOptional({ type: String, nullable: true, minLength: SECTION_TITLE.min, maxLength: SECTION_TITLE.max })
  @IsOptional()
  @IsString()
  @MinLength(SECTION_TITLE.min)
  @MaxLength(SECTION_TITLE.max)
  title?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  /** The section group to create the section in */
  @Optional() @IsString() @MaxLength(200) siteSectionGroupId?: string;
}

export class UpdateSectionDto {
  @Optional() @IsString() @MinLength(SECTION_TITLE.min) @MaxLength(SECTION_TITLE.max) title?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(PATH_MAX) path?: string;
  /** Site space used as the default in this section */
  @Optional() @IsString() @MaxLength(200) defaultSiteSpace?: string;
  /** Expression deciding whether visitors see the section; unset leaves it, null removes it */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}

export class AddGroupDto {
  @IsString() @MinLength(GROUP_TITLE.min) @MaxLength(GROUP_TITLE.max) title: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
  /** Sections moved into the new group */
  @Optional() @IsArray() @ArrayMaxSize(200) @IsString({ each: true }) @MaxLength(200, { each: true }) sections?: string[];
  /** The group to nest it in (absent: the root of the site) */
  @Optional() @IsString() @MaxLength(200) parent?: string;
}

export class UpdateGroupDto {
  @Optional() @IsString() @MinLength(GROUP_TITLE.min) @MaxLength(GROUP_TITLE.max) title?: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(ICON_MAX)
  icon?: string | null;
}

export class AddSectionToGroupDto {
  @IsString() @MinLength(1) @MaxLength(200) sectionId: string;
}

export class AddSiteSpaceDto {
  @IsString() @MinLength(1) @MaxLength(200) spaceId: string;
  /** Section to add it to (absent: the default section, or the root when the site has no sections) */
  @Optional() @IsString() @MaxLength(200) sectionId?: string;
}

/** Official duplicateSiteSpace body. */
export class DuplicateSiteSpaceDto {
  /** Quire's site structure has no drafts: the copy is live at once, so only false (the default) is taken. */
  @ApiPropertyOptional({ type: Boolean, default: false })
  @Optional()
  @IsBoolean()
  @Equals(false, { message: 'draft: Quire’s site structure has no drafts (a duplicate is live at once); leave it out or send false' })
  draft?: boolean;
}

export class UpdateSiteSpaceDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(PATH_MAX) path?: string;
  /** Expression deciding whether visitors see the site space; unset leaves it, null removes it */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
  /** The space it points to */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) spaceId?: string;
}

export class StructurePointerDto {
  @ApiProperty({ enum: POINTER_TYPES }) @IsIn(POINTER_TYPES) type: (typeof POINTER_TYPES)[number];
  @IsString() @MinLength(1) @MaxLength(200) id: string;
}

export class StructurePositionDto {
  @Optional() @ValidateNested() @Type(() => StructurePointerDto) @IsObject() before?: StructurePointerDto;
  @Optional() @ValidateNested() @Type(() => StructurePointerDto) @IsObject() after?: StructurePointerDto;
}

export class SortStructureDto {
  @ValidateNested() @Type(() => StructurePointerDto) @IsObject() item: StructurePointerDto;
  /** Before or after a sibling; `{}` moves the item to the end of its level */
  @ValidateNested() @Type(() => StructurePositionDto) @IsObject() position: StructurePositionDto;
}

export class SectionPointerDto {
  @ApiProperty({ enum: ['site-section'] }) @IsIn(['site-section']) type: 'site-section';
  @IsString() @MinLength(1) @MaxLength(200) siteSection: string;
}

export class SectionPositionDto {
  @Optional() @ValidateNested() @Type(() => SectionPointerDto) @IsObject() before?: SectionPointerDto;
  @Optional() @ValidateNested() @Type(() => SectionPointerDto) @IsObject() after?: SectionPointerDto;
}

export class MoveSectionDto {
  @Optional() @ValidateNested() @Type(() => SectionPositionDto) @IsObject() position?: SectionPositionDto;
}

export class SiteSpacePointerDto {
  @ApiProperty({ enum: ['site-space'] }) @IsIn(['site-space']) type: 'site-space';
  @IsString() @MinLength(1) @MaxLength(200) siteSpace: string;
}

export class SiteSpacePositionDto {
  @Optional() @ValidateNested() @Type(() => SiteSpacePointerDto) @IsObject() before?: SiteSpacePointerDto;
  @Optional() @ValidateNested() @Type(() => SiteSpacePointerDto) @IsObject() after?: SiteSpacePointerDto;
}

export class MoveSiteSpaceDto {
  @Optional() @ValidateNested() @Type(() => SiteSpacePositionDto) @IsObject() position?: SiteSpacePositionDto;
}

export class GroupPointerDto {
  @ApiProperty({ enum: ['site-section', 'site-section-group'] })
  @IsIn(['site-section', 'site-section-group'])
  type: 'site-section' | 'site-section-group';
  @IsString() @MinLength(1) @MaxLength(200) id: string;
}

export class GroupPositionDto {
  @Optional() @ValidateNested() @Type(() => GroupPointerDto) @IsObject() before?: GroupPointerDto;
  @Optional() @ValidateNested() @Type(() => GroupPointerDto) @IsObject() after?: GroupPointerDto;
}

export class MoveGroupDto {
  @Optional() @ValidateNested() @Type(() => GroupPositionDto) @IsObject() position?: GroupPositionDto;
}

export class PublishedUrlDto {
  @ApiPropertyOptional({ format: 'uri' }) published?: string;
}

export class SiteSpaceDto {
  @ApiProperty({ enum: ['site-space'] }) object: 'site-space';
  id: string;
  path: string;
  /** The section holding it (absent at the root) */
  section?: string;
  space: SpaceDto;
  /** The space's title */
  title: string;
  default: boolean;
  condition?: string;
  draft: boolean;
  hasAdvancedCustomizationFeature: boolean;
  urls: PublishedUrlDto;
}

export class SiteSectionDto {
  @ApiProperty({ enum: ['site-section'] }) object: 'site-section';
  id: string;
  title: string;
  description?: string;
  default: boolean;
  draft: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  siteSpaces: SiteSpaceDto[];
  urls: PublishedUrlDto;
  icon?: string;
}

@ApiExtraModels(SiteSectionDto)
/** Official SiteExternalLink: a link of the site's navigation to another site. */
export class SiteExternalLinkDto {
  @ApiProperty({ enum: ['site-external-link'] }) object: 'site-external-link';
  id: string;
  @ApiProperty({ minLength: SECTION_TITLE.min, maxLength: SECTION_TITLE.max }) title: string;
  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX }) description?: string;
  @ApiPropertyOptional({ maxLength: ICON_MAX }) icon?: string;
  /** Absolute http or https URL the link opens */
  @ApiProperty({ format: 'uri', maxLength: 2048 }) url: string;
  /** The section group it is in (absent: the root) */
  sectionGroup?: string;
  /** Always false: Quire has no drafts */
  draft: boolean;
  /** Expression deciding whether visitors see the link */
  condition?: string;
}

/** Official addExternalLinkToSite body. */
export class AddExternalLinkDto {
  @IsString() @MinLength(SECTION_TITLE.min) @MaxLength(SECTION_TITLE.max) title: string;
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'Absolute http or https URL' }) @IsString() @MaxLength(2048) url: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX }) @IsOptional() @IsString() @MaxLength(ICON_MAX) icon?:
    string | null;
  /** The section group to put it in (absent: the site root) */
  @Optional() @IsString() @MinLength(1) @MaxLength(200) parent?: string;
  /** Quire has no drafts: only false (the default) is taken */
  @ApiPropertyOptional({ type: Boolean, default: false })
  @Optional()
  @IsBoolean()
  @Equals(false, { message: 'draft: Quire’s site structure has no drafts (a link is live at once); leave it out or send false' })
  draft?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
}

/** Official updateSiteExternalLinkById body: what is given changes; null clears (parent null: to the root). */
export class UpdateExternalLinkDto {
  @Optional() @IsString() @MinLength(SECTION_TITLE.min) @MaxLength(SECTION_TITLE.max) title?: string;
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048 }) @Optional() @IsString() @MaxLength(2048) url?: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ICON_MAX }) @IsOptional() @IsString() @MaxLength(ICON_MAX) icon?:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(200) parent?: string | null;
  @ApiPropertyOptional({ type: Boolean })
  @Optional()
  @IsBoolean()
  @Equals(false, { message: 'draft: Quire’s site structure has no drafts; leave it out or send false' })
  draft?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: CONDITION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(CONDITION_MAX)
  condition?: string | null;
}

export class SiteSectionGroupDto {
  @ApiProperty({ enum: ['site-section-group'] }) object: 'site-section-group';
  id: string;
  title: string;
  /** The parent group */
  sectionGroup?: string;
  draft: boolean;
  /** Deprecated: the sections directly in the group (use `children`) */
  @ApiProperty({ type: [SiteSectionDto], deprecated: true }) sections: SiteSectionDto[];
  /** Sections, groups and external links directly in the group, in order */
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(SiteSectionDto) },
        { $ref: getSchemaPath(SiteSectionGroupDto) },
        { $ref: getSchemaPath(SiteExternalLinkDto) },
      ],
    },
  })
  children: (SiteSectionDto | SiteSectionGroupDto | SiteExternalLinkDto)[];
  icon?: string;
}

@ApiExtraModels(SiteSectionDto, SiteSectionGroupDto, SiteSpaceDto, SiteExternalLinkDto)
export class SiteStructureDto {
  @ApiProperty({ enum: ['sections', 'siteSpaces'] }) type: 'sections' | 'siteSpaces';
  /** Sections, groups and external links (type sections) or site spaces (type siteSpaces), in order */
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(SiteSectionDto) },
        { $ref: getSchemaPath(SiteSectionGroupDto) },
        { $ref: getSchemaPath(SiteExternalLinkDto) },
        { $ref: getSchemaPath(SiteSpaceDto) },
      ],
    },
  })
  structure: (SiteSectionDto | SiteSectionGroupDto | SiteExternalLinkDto | SiteSpaceDto)[];
}
