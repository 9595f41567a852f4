import { ApiProperty } from '@nestjs/swagger';

export class ErrorBodyDto {
  @ApiProperty({ description: 'HTTP status code', example: 404 })
  code: number;
  @ApiProperty({ example: 'Space "abc" not found' })
  message: string;
}

/** The error envelope of every failure: `{ "error": { "code", "message" } }`. */
export class ErrorDto {
  @ApiProperty({ type: ErrorBodyDto })
  error: ErrorBodyDto;
}
