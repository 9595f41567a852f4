import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiResetContentResponse } from '@nestjs/swagger';
import type { Response } from 'express';

/** The official delete convention: 205 when something was deleted, 204 when nothing was there. */
export function setDeleteStatus(res: Response, outcome: 'deleted' | 'removed' | 'absent'): void {
  res.status(outcome === 'absent' ? 204 : 205);
}

/**
 * The decorators of every DELETE: 205 by default (deleted), 204 when nothing was there, both documented.
 * The handler sets the real status with setDeleteStatus.
 */
export function ApiDeleteOperation(operationId: string, summary: string, what: string) {
  return applyDecorators(
    HttpCode(205),
    ApiOperation({ operationId, summary }),
    ApiResetContentResponse({ description: `${what} has been deleted` }),
    ApiNoContentResponse({ description: `${what} did not exist` }),
  );
}
