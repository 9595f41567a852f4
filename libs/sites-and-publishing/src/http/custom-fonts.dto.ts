import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Optional } from '@app/http-kit';
import { FONT_FACES_MAX, FONT_FAMILY_MAX } from '../domain/custom-fonts';
import type { CustomFontView } from '../application/custom-fonts.service';

const STORAGE_KEY_MAX = 512;

/** One face of a new font: a weight and the storage key of its uploaded file. */
export class FontFaceInputDto {
  @ApiProperty({ description: 'Numeric representation of the font weight (400=regular, 700=bold)', minimum: 1, maximum: 1000 })
  @IsInt()
  @Min(1)
  @Max(1000)
  weight: number;
  @ApiProperty({
    description: 'The storage key of the uploaded font file (generateStorageUploadURL, kind customization_font)',
    minLength: 1,
    maxLength: STORAGE_KEY_MAX,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(STORAGE_KEY_MAX)
  storageKey: string;
}

/** One face of an update: null as the storage key removes that weight. */
export class FontFacePatchDto {
  @ApiProperty({ minimum: 1, maximum: 1000 }) @IsInt() @Min(1) @Max(1000) weight: number;
  @ApiProperty({ type: String, nullable: true, minLength: 1, maxLength: STORAGE_KEY_MAX, description: 'null removes the weight' })
  @ValidateIf((o: FontFacePatchDto) => o.storageKey !== null)
  @IsString()
  @MinLength(1)
  @MaxLength(STORAGE_KEY_MAX)
  storageKey: string | null;
}

/** The official body of createCustomFont. */
export class CreateCustomFontDto {
  @ApiProperty({ description: 'The font-family name used in CSS', minLength: 1, maxLength: FONT_FAMILY_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(FONT_FAMILY_MAX)
  fontFamily: string;
  @ApiProperty({
    type: [FontFaceInputDto],
    minItems: 1,
    maxItems: FONT_FACES_MAX,
    description: 'At least one face of weight 400 (412 otherwise)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FONT_FACES_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FontFaceInputDto)
  fontFaces: FontFaceInputDto[];
}

/** The official body of updateCustomFont: what is given changes. */
export class UpdateCustomFontDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: FONT_FAMILY_MAX })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(FONT_FAMILY_MAX)
  fontFamily?: string;
  @ApiPropertyOptional({ type: [FontFacePatchDto], maxItems: FONT_FACES_MAX })
  @Optional()
  @IsArray()
  @ArrayMaxSize(FONT_FACES_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FontFacePatchDto)
  fontFaces?: FontFacePatchDto[];
}

export class FontSourceDto {
  @ApiProperty({ description: 'Where the font file is served, to anyone' }) url: string;
  @ApiProperty({ enum: ['woff2', 'woff'] }) format: 'woff2' | 'woff';
}

export class FontFaceDto {
  weight: number;
  @ApiProperty({ type: [FontSourceDto], minItems: 1 }) sources: FontSourceDto[];
}

export class FontPermissionsDto {
  /** Can the caller edit the font definition */
  edit: boolean;
}

/** The official CustomizationFontDefinition. */
export class CustomFontDto {
  id: string;
  /** Always true: Quire's fonts are uploaded by the organization. */
  custom: boolean;
  fontFamily: string;
  @ApiProperty({ type: [FontFaceDto], minItems: 1 }) fontFaces: FontFaceDto[];
  permissions: FontPermissionsDto;
}

export function toCustomFontDto(view: CustomFontView, fileUrl: (key: string) => string): CustomFontDto {
  return {
    id: view.font.id,
    custom: true,
    fontFamily: view.font.fontFamily,
    fontFaces: view.faces.map((f) => ({ weight: f.weight, sources: [{ url: fileUrl(f.storageKey), format: f.format }] })),
    permissions: { edit: view.canEdit },
  };
}
