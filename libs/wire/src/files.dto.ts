import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import type { Links } from '@app/http-kit';
import type { FileNode } from '@app/content-model';

export class FileDimensionsDto {
  width: number;
  height: number;
}

export class RevisionFileDto {
  id: string;
  name: string;
  contentType: string;
  /** Signed URL served by Quire; expires after an hour */
  @ApiProperty({ format: 'uri' }) downloadURL: string;
  size: number;
  @ApiPropertyOptional({ type: FileDimensionsDto }) dimensions?: FileDimensionsDto;
}

/** The official RevisionFile; `downloadPath`: the file's signed download path (the content context signs it). */
export function fileDto(file: FileNode, downloadPath: string, links: Links): RevisionFileDto {
  const dto: RevisionFileDto = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: links.api(downloadPath),
    size: file.size,
  };
  if (file.dimensions) dto.dimensions = file.dimensions;
  return dto;
}

export class DownloadQueryDto {
  @IsString() @MaxLength(256) name: string;
  @IsString() @MaxLength(255) type: string;
  @IsString() @MaxLength(20) expires: string;
  @IsString() @MaxLength(100) sig: string;
}
