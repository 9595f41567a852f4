/**
 * A unit of work: everything `work` writes through the context repositories commits together or not
 * at all. Application services use it for use cases that write more than once (merge, transfer, SSO
 * login, creating an organization with its admin). Nested calls join the outer unit.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** For unit specs with in-memory fakes: runs the work as it is. */
export class ImmediateUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
