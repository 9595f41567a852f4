/**
 * A unit of work: everything `work` writes through the context repositories commits together or not
 * at all. Application services use it for use cases that write more than once (merge, transfer, SSO
 * login, creating an organization with its admin). Nested calls join the outer unit.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Registers the undo of a side effect outside the database (bytes written to disk) made inside the
   * current unit of work: it runs if the unit rolls back. Outside a unit of work it never runs.
   */
  abstract onRollback(undo: () => Promise<void>): void;
  /**
   * Runs `then` once the current unit of work has committed (the outermost one, when nested); never if
   * it rolls back. Outside a unit of work it runs at once. For telling others (domain events).
   */
  abstract afterCommit(then: () => void): void;
  /**
   * Runs `work` inside the current unit of work once its own work is done, just before it commits (the
   * outermost one, when nested): its writes commit with the rest, and its failure rolls everything back.
   * For durable records of what happened (webhook deliveries). Outside a unit of work it runs at once
   * (nothing waits for it; its failure is logged).
   */
  abstract beforeCommit(work: () => Promise<void>): void;
  /**
   * Runs `work` outside any unit of work: its statements go through the pool on connections of their
   * own, and it commits nothing of the caller's. For what a use case does before it writes and that
   * must not hold a transaction open: checks, and every outbound request (a unit of work holds no
   * connection until its first statement, so reading and fetching here first keeps a slow remote from
   * holding a connection or a lock).
   */
  abstract outside<T>(work: () => Promise<T>): Promise<T>;
}

/** For unit specs with in-memory fakes: runs the work as it is. */
export class ImmediateUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  onRollback(): void {}
  afterCommit(then: () => void): void {
    then();
  }
  beforeCommit(work: () => Promise<void>): void {
    void work();
  }
  outside<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
