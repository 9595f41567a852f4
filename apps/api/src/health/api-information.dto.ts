import { ApiProperty } from '@nestjs/swagger';

/** The official `ApiInformation`, with what this instance can do (a Quire extension). */
export class ApiInformationDto {
  @ApiProperty({ description: 'Current release of Quire (its package version)', example: '0.1.0' })
  version: string;

  @ApiProperty({ description: 'Date of the release in ISO format (when this build was made)', example: '2026-11-29T00:00:00.000Z' })
  build: string;

  @ApiProperty({
    description:
      'Quire extension: the optional features this instance has configured — `answers` (a language model answers ' +
      'visitors’ questions), `translations-llm`, `translations-libretranslate`, `translations-apertium`, ' +
      '`conversations-llm`, `object-storage` (S3), `metrics`, `git-polling`.',
    type: [String],
    example: ['translations-apertium', 'metrics'],
  })
  features: string[];
}
