import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorDto } from './error.dto';

/** Bearer security plus the error responses every authenticated operation can give. */
export function ApiStandardErrors() {
  return applyDecorators(
    ApiBearerAuth('user'),
    ApiBadRequestResponse({ type: ErrorDto, description: 'Invalid input' }),
    ApiUnauthorizedResponse({ type: ErrorDto, description: 'Missing, invalid, expired or revoked token' }),
    ApiForbiddenResponse({ type: ErrorDto, description: 'The caller lacks the role for this operation' }),
    ApiNotFoundResponse({ type: ErrorDto, description: 'Unknown resource, or one the caller cannot see' }),
  );
}
