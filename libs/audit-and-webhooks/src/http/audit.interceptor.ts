import { CallHandler, ExecutionContext, Injectable, NestInterceptor, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { Actor, Clock, UnitOfWork } from '@app/shared-kernel';
import { IS_PUBLIC, READS_ONLY, WRITE_TRANSACTION } from '@app/http-kit';
import { AuditLog } from '../application/audit-log.service';
import { AuditScopes, AuditTarget, targetTypeOf } from '../domain/audit-event';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WRITE_METHODS = new Set<RequestMethod>([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);
/** Ids worth a lookup (anything else is refused by the route's own validation, after this). */
const SANE_ID = /^[A-Za-z0-9_-]{1,128}$/;

interface Operation {
  operationId?: string;
  summary?: string;
}

type AuditedRequest = Request & { actor?: Actor; id?: string };

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The resource a write answered with (`{object, id}`), else the deepest resource its path names. */
export function auditTarget(params: Record<string, string>, body: unknown): AuditTarget | null {
  const b = body as Record<string, unknown> | null | undefined;
  if (b && typeof b === 'object' && str(b.object) && str(b.id)) {
    const label = str(b.title) ?? str(b.name) ?? str(b.displayName) ?? str(b.subject) ?? str(b.slug);
    return { type: b.object as string, id: b.id as string, ...(label ? { label: label.slice(0, 256) } : {}) };
  }
  const names = Object.keys(params);
  const last = names[names.length - 1];
  return last ? { type: targetTypeOf(last), id: params[last] } : null;
}

/** Where an app keeps its AuditInterceptor: a setting of its own Express instance (`req.app`). */
const AUDITOR = 'quire.auditInterceptor';

/**
 * What the write handlers are bound to (one object for every app in the process, as handlers are
 * shared by class): it hands the call to the AuditInterceptor of the app that received the request.
 * Reads get no interceptor at all: Nest then skips its rxjs pipeline, which a global interceptor
 * cost every request (~5 points of the read ratio in docs/benchmarks.md).
 */
const AUDIT_DISPATCH: NestInterceptor = {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const auditor = ctx.switchToHttp().getRequest<Request>().app?.get(AUDITOR) as AuditInterceptor | undefined;
    return auditor ? auditor.intercept(ctx, next) : next.handle();
  },
};

/**
 * Records every authenticated write of the API in the audit log, in the same transaction as the
 * write: the handler (declared with @WriteTransaction()) runs inside a unit of work that the event's
 * insert closes. A write that fails rolls back without an event; an event that cannot be written fails
 * the write (nothing is kept). The action is the operation's operationId, so every write operation has
 * one, by construction.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor, OnApplicationBootstrap {
  constructor(
    private readonly reflector: Reflector,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditLog,
    private readonly scopes: AuditScopes,
    private readonly clock: Clock,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    // Before the routes are registered (app.init), so the router sees the binding. Every authenticated
    // write declares its transaction (@WriteTransaction()): a write without it stops the app here.
    const undeclared = [...this.writeHandlers()].filter(({ handler }) => !this.reflector.get<boolean>(WRITE_TRANSACTION, handler));
    // A handler that reads only (@ReadsOnly) opens no unit of work: it cannot also declare one.
    const both = [...this.writeHandlers(true)].filter(
      ({ handler }) => this.reflector.get<boolean>(READS_ONLY, handler) && this.reflector.get<boolean>(WRITE_TRANSACTION, handler),
    );
    if (both.length) throw new Error(`Handlers both @ReadsOnly() and @WriteTransaction(): ${both.map(({ name }) => name).join(', ')}`);
    if (undeclared.length)
      throw new Error(`Authenticated write handlers without @WriteTransaction(): ${undeclared.map(({ name }) => name).join(', ')}`);
    for (const { handler } of this.writeHandlers()) {
      const bound = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
      if (!bound.includes(AUDIT_DISPATCH)) Reflect.defineMetadata(INTERCEPTORS_METADATA, [AUDIT_DISPATCH, ...bound], handler);
    }
  }

  /** Every authenticated write handler of the app's controllers (by class: the same in every app); `withReadsOnly`: the POSTs that read only too. */
  private *writeHandlers(withReadsOnly = false): Generator<{ handler: (...args: unknown[]) => unknown; name: string }> {
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: unknown[]) => object) | undefined;
      if (!type?.prototype) continue;
      const proto = type.prototype as Record<string, unknown>;
      const classPublic = this.reflector.get<boolean>(IS_PUBLIC, type);
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name] as (...args: unknown[]) => unknown;
        const method = Reflect.getMetadata('method', handler) as RequestMethod | undefined;
        if (method === undefined || !WRITE_METHODS.has(method)) continue;
        if (classPublic || this.reflector.get<boolean>(IS_PUBLIC, handler)) continue;
        if (!withReadsOnly && this.reflector.get<boolean>(READS_ONLY, handler)) continue;
        yield { handler, name: `${type.name}.${name}` };
      }
    }
  }

  /** This app's interceptor for its requests, and the catalog of actions (`GET …/audit-event-actions`). */
  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter?.getInstance<{ set(name: string, value: unknown): void }>().set(AUDITOR, this);
    const actions = new Map<string, string>();
    for (const { handler } of this.writeHandlers()) {
      const op = this.reflector.get<Operation | undefined>(DECORATORS.API_OPERATION, handler);
      if (op?.operationId) actions.set(op.operationId, op.summary ?? op.operationId);
    }
    this.audit.setApiActions([...actions].map(([id, label]) => ({ id, label })));
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<AuditedRequest>();
    if (!WRITES.has(req.method) || !req.actor) return next.handle();
    const op = this.reflector.get<Operation | undefined>(DECORATORS.API_OPERATION, ctx.getHandler());
    if (!op?.operationId) return next.handle();
    const actor = req.actor;
    const params = req.params as Record<string, string>;
    const action = op.operationId;
    // The scope is read before the unit of work opens: a unit of work holds no connection until its
    // first statement, so a write that checks or fetches first (outside it) holds none meanwhile.
    const audited = async () => {
      const scope = await this.organizationOf(params);
      return this.uow.run(async () => {
        const value: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const target = auditTarget(params, value) ?? { type: 'user', id: actor.userId };
        const body = value as { object?: unknown; id?: unknown } | undefined;
        const organizationId = scope ?? (body?.object === 'organization' ? (str(body.id) ?? null) : null);
        await this.audit.record({
          organizationId,
          occurredAt: this.clock.now(),
          action,
          actor: { type: 'user', id: actor.userId },
          tokenId: actor.tokenId,
          source: 'api',
          target,
          clientAddress: req.ip ?? null,
          requestId: req.id ?? null,
          payload: { method: req.method, route: (req.route as { path?: string } | undefined)?.path ?? req.path, params: { ...params } },
        });
        return value;
      });
    };
    return from(audited());
  }

  private async organizationOf(params: Record<string, string>): Promise<string | null> {
    if (params.organizationId !== undefined) return params.organizationId;
    for (const [param, kind] of [
      ['spaceId', 'space'],
      ['collectionId', 'collection'],
    ] as const) {
      const id = params[param];
      if (id !== undefined) return SANE_ID.test(id) ? this.scopes.organizationOf(kind, id) : null;
    }
    return null;
  }
}
