import { Controller, Post } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import { Public, WriteTransaction } from '@app/http-kit';
import { Clock, ImmediateUnitOfWork } from '@app/shared-kernel';
import type { AuditLog } from '../application/audit-log.service';
import type { AuditScopes } from '../domain/audit-event';
import { AuditInterceptor } from '../http/audit.interceptor';

@Controller('declared')
class Declared {
  @WriteTransaction()
  @Post()
  write(): void {}
}

@Controller('undeclared')
class Undeclared {
  @Post('a')
  forgot(): void {}
}

@Public()
@Controller('public')
class PublicWrites {
  @Post()
  callback(): void {}
}

/** Transactions you can see: every authenticated write handler declares @WriteTransaction(), or the app does not start. */
describe('AuditInterceptor: declared write transactions', () => {
  const build = (...controllers: (new () => object)[]) =>
    new AuditInterceptor(
      new Reflector(),
      new ImmediateUnitOfWork(),
      {} as AuditLog,
      {} as AuditScopes,
      {} as Clock,
      { getControllers: () => controllers.map((metatype) => ({ metatype })) } as unknown as DiscoveryService,
      new MetadataScanner(),
      {} as HttpAdapterHost,
    );

  it('starts when every authenticated write declares its transaction (public writes need none)', () => {
    expect(() => build(Declared, PublicWrites)).not.toThrow();
  });

  it('refuses to start with a write that does not, naming it', () => {
    expect(() => build(Declared, Undeclared)).toThrow(/without @WriteTransaction\(\): Undeclared\.forgot/);
  });
});
