import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { STORAGE_UPLOAD_KINDS, type StorageUploadKind } from '../domain/storage';

/** The official StorageFileMetadata. */
export class StorageFileMetadataDto {
  @ApiProperty({ description: 'Original filename', maxLength: 255 }) @IsString() @MaxLength(255) name: string;
  @ApiProperty({ description: 'MIME type of the file', maxLength: 255 }) @IsString() @MaxLength(255) type: string;
  @ApiProperty({ description: 'Size of the file in bytes', type: 'number' }) @IsInt() @Min(1) size: number;
}

/** The official body of generateStorageUploadURL. */
export class GenerateStorageUploadDto {
  @ApiProperty({ type: StorageFileMetadataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => StorageFileMetadataDto)
  file: StorageFileMetadataDto;

  @ApiProperty({ enum: STORAGE_UPLOAD_KINDS }) @IsIn(STORAGE_UPLOAD_KINDS) kind: StorageUploadKind;
}

/** The official StorageUploadURL. */
export class StorageUploadUrlDto {
  @ApiProperty({ enum: ['storage-signed-url'] }) object: 'storage-signed-url';
  @ApiProperty({ description: 'Presigned URL for uploading the file: PUT its bytes there, with its Content-Type, within an hour, once' })
  url: string;
  @ApiProperty({ description: 'The bucket object key for the file' }) key: string;
}

/** A file whose bytes came in (Quire: the answer of the upload URL). */
export class StorageFileDto {
  @ApiProperty({ enum: ['storage-file'] }) object: 'storage-file';
  key: string;
  @ApiProperty({ description: 'Where the file is served, to anyone (a logo shows to every visitor)' }) url: string;
  contentType: string;
  size: number;
}
