import { Clock } from './clock';
import { UnitOfWork } from './unit-of-work';

/**
 * Domain events: what happened in a context, told to whoever listens in this process (webhooks and
 * audit later), without the listeners depending on the context that publishes. Publishers pass the
 * event to `UnitOfWork.afterCommit`, so nothing is told about writes that rolled back.
 */
export interface DomainEvent {
  /** `<aggregate>.<what happened>`, e.g. `comment.created`, `change-request.status-changed`. */
  type: string;
  organizationId: string;
  occurredAt: Date;
  /** Who caused it (a user id), when a user did. */
  actor: string | null;
  /** Ids and values that say what happened (plain JSON). */
  data: Record<string, unknown>;
}

export type DomainEventHandler = (event: DomainEvent) => void | Promise<void>;

/** Writes an event durably in the publisher's unit of work (e.g. webhook deliveries): it commits with the write. */
export type DomainEventRecorder = (event: DomainEvent) => Promise<void>;

export abstract class DomainEvents {
  abstract publish(event: DomainEvent): void;
  /** Subscribes to every event; returns the unsubscribe function. */
  abstract subscribe(handler: DomainEventHandler): () => void;
  /** Runs every recorder, in the caller's unit of work (a failing recorder fails the write). */
  abstract record(event: DomainEvent): Promise<void>;
  /** Adds a recorder, told of every event before its unit of work commits; returns the removal function. */
  abstract addRecorder(recorder: DomainEventRecorder): () => void;
}

/**
 * The in-process bus: handlers run after the publisher's call returns (a microtask later), each on its
 * own; a failing handler is reported to `onError` and does not affect the publisher or the others.
 */
export class InProcessDomainEvents extends DomainEvents {
  private readonly handlers = new Set<DomainEventHandler>();

  constructor(private readonly onError: (error: unknown, event: DomainEvent) => void = () => undefined) {
    super();
  }

  publish(event: DomainEvent): void {
    for (const handler of this.handlers)
      queueMicrotask(() => {
        Promise.resolve()
          .then(() => handler(event))
          .catch((e: unknown) => this.onError(e, event));
      });
  }

  subscribe(handler: DomainEventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  private readonly recorders = new Set<DomainEventRecorder>();

  async record(event: DomainEvent): Promise<void> {
    for (const recorder of this.recorders) await recorder(event);
  }

  addRecorder(recorder: DomainEventRecorder): () => void {
    this.recorders.add(recorder);
    return () => this.recorders.delete(recorder);
  }
}

/**
 * A context's publisher of its own event types: the event is made now (time from the Clock), recorded
 * durably in the current unit of work (webhook deliveries commit with the write), and published on the
 * bus once it commits (at once outside one; never on rollback). Each
 * context subclasses it (with its DI decorator and a constructor passing the three ports through).
 */
export abstract class ContextEvents<T extends string> {
  constructor(
    private readonly bus: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  publish(type: T, organizationId: string, actor: string | null, data: Record<string, unknown>): void {
    const event: DomainEvent = { type, organizationId, occurredAt: this.clock.now(), actor, data };
    this.uow.beforeCommit(() => this.bus.record(event));
    this.uow.afterCommit(() => this.bus.publish(event));
  }
}
