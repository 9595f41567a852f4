import { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'typeorm';

/**
 * TypeORM's messages through the app's JSON logger instead of its colored console output. A failed
 * statement is logged at debug: most are expected (a unique violation answered 409, a lost race retried)
 * and an unexpected one reaches the error filter, which logs the 500. Statement parameters are never
 * logged (they can hold token hashes, secrets and page content).
 */
export class TypeOrmLogger implements Logger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string, _parameters?: unknown[]): void {
    this.logger.debug(`statement failed: ${error instanceof Error ? error.message : error} — ${query.replace(/\s+/g, ' ').slice(0, 500)}`);
  }

  logQuerySlow(time: number, query: string, _parameters?: unknown[]): void {
    this.logger.warn(`slow statement (${time} ms): ${query.replace(/\s+/g, ' ').slice(0, 500)}`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
