/** A change that makes cached access answers stale: a revoked token, a changed organization role. */
export type AccessChange =
  | { kind: 'token'; hash: string }
  | { kind: 'role'; organizationId: string; userId: string }
  /** Content permissions or team memberships of the organization changed (the effective roles of its members). */
  | { kind: 'grants'; organizationId: string }
  | { kind: 'reset' };

/**
 * Tells every API process that a cached access answer is stale. The in-process caches of tokens and
 * roles subscribe; a change evicts the entry in this process at once and in the others as soon as the
 * notification arrives. `reset` (the channel came back after being down) drops everything cached.
 */
export abstract class AccessChanges {
  private readonly handlers: ((change: AccessChange) => void)[] = [];

  subscribe(handler: (change: AccessChange) => void): void {
    this.handlers.push(handler);
  }

  protected deliver(change: AccessChange): void {
    for (const h of this.handlers) h(change);
  }

  /** Evicts here, then tells the other processes (inside a unit of work: when it commits). */
  async publish(change: AccessChange): Promise<void> {
    this.deliver(change);
    await this.broadcast(change);
  }

  protected abstract broadcast(change: AccessChange): Promise<void>;
}

/** One process only (unit specs, the CLI): nothing to broadcast. */
export class LocalAccessChanges extends AccessChanges {
  protected async broadcast(): Promise<void> {}
}
