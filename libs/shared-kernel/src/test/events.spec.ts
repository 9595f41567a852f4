import { DomainEvent, ImmediateUnitOfWork, InProcessDomainEvents } from '..';

const event = (type: string): DomainEvent => ({ type, organizationId: 'o', occurredAt: new Date(0), actor: 'u', data: { n: 1 } });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the in-process domain event bus', () => {
  it('tells every subscriber, after the publisher returned; a failing handler is reported and does not stop the others', async () => {
    const errors: string[] = [];
    const bus = new InProcessDomainEvents((e, ev) => errors.push(`${ev.type}: ${e instanceof Error ? e.message : String(e)}`));
    const seen: string[] = [];
    bus.subscribe((e) => {
      seen.push(`a ${e.type}`);
    });
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe(async (e) => {
      await Promise.resolve();
      seen.push(`c ${e.type}`);
    });
    bus.publish(event('comment.created'));
    expect(seen).toEqual([]);
    await settle();
    expect(seen).toEqual(['a comment.created', 'c comment.created']);
    expect(errors).toEqual(['comment.created: boom']);
  });

  it('stops telling a handler that unsubscribed', async () => {
    const bus = new InProcessDomainEvents();
    const seen: string[] = [];
    const off = bus.subscribe((e) => {
      seen.push(e.type);
    });
    bus.publish(event('one'));
    await settle();
    off();
    bus.publish(event('two'));
    await settle();
    expect(seen).toEqual(['one']);
  });

  it('ImmediateUnitOfWork runs after-commit actions at once', () => {
    let ran = false;
    new ImmediateUnitOfWork().afterCommit(() => (ran = true));
    expect(ran).toBe(true);
  });
});
