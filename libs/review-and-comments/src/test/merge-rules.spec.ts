import { MergeContext, unmetMergeRule } from '../domain/review';
import { checkEmojis, commentPermissions, withResolved, type Comment } from '../domain/comment';

const ctx = (over: Partial<MergeContext> = {}): MergeContext => ({
  reviews: [],
  author: 'alice',
  merger: 'alice',
  outdated: false,
  subject: 'Fix',
  hasDescription: true,
  ...over,
});
const approved = (reviewer: string) => ({ reviewer, status: 'approved' as const });
const changes = (reviewer: string) => ({ reviewer, status: 'changes-requested' as const });

describe('merge rules', () => {
  it.each([
    ['require_at_least_one_review', ctx(), ctx({ reviews: [changes('bob')] })],
    ['require_at_least_one_approved_review', ctx({ reviews: [changes('bob')] }), ctx({ reviews: [approved('bob')] })],
    [
      'require_all_reviews_approved',
      ctx({ reviews: [approved('bob'), changes('carol')] }),
      ctx({ reviews: [approved('bob'), approved('carol')] }),
    ],
    ['require_up_to_date_change_request', ctx({ outdated: true }), ctx()],
    ['require_change_request_subject', ctx({ subject: '  ' }), ctx()],
    ['require_change_request_description', ctx({ hasDescription: false }), ctx()],
    ['require_author_to_merge', ctx({ merger: 'bob' }), ctx()],
  ])('%s: refused, then met', (rule, refused, met) => {
    expect(unmetMergeRule([{ rule }], refused)).toMatch(new RegExp(`^Merge rule "${rule}" is not met: `));
    expect(unmetMergeRule([{ rule }], met)).toBeNull();
  });

  it('require_all_reviews_approved needs at least one review', () => {
    expect(unmetMergeRule([{ rule: 'require_all_reviews_approved' }], ctx())).toMatch(/no review/);
  });

  it('specific reviewers: all of them, or one of them, approving', () => {
    const all = [{ rule: 'require_specific_reviewers', users: ['bob', 'carol'] }];
    expect(unmetMergeRule(all, ctx({ reviews: [approved('bob')] }))).toMatch(/carol/);
    expect(unmetMergeRule(all, ctx({ reviews: [approved('bob'), changes('carol')] }))).toMatch(/carol/);
    expect(unmetMergeRule(all, ctx({ reviews: [approved('bob'), approved('carol')] }))).toBeNull();
    const one = [{ rule: 'require_one_of_specific_reviewers', users: ['bob', 'carol'] }];
    expect(unmetMergeRule(one, ctx({ reviews: [approved('dave')] }))).toMatch(/one of bob, carol/);
    expect(unmetMergeRule(one, ctx({ reviews: [approved('carol')] }))).toBeNull();
  });

  it('allow_bypass lets its users merge whatever the other rules say; the agent rule is never met', () => {
    const rules = [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: ['boss'] }];
    expect(unmetMergeRule(rules, ctx({ merger: 'bob' }))).toMatch(/require_at_least_one_review/);
    expect(unmetMergeRule(rules, ctx({ merger: 'boss' }))).toBeNull();
    expect(unmetMergeRule([{ rule: 'require_agent_review' }], ctx({ reviews: [approved('bob')] }))).toMatch(/no review agent/);
    expect(unmetMergeRule([{ rule: 'custom' }], ctx())).toMatch(/does not evaluate/);
  });
});

describe('comment rules', () => {
  const comment = {
    id: 'c',
    postedBy: 'alice',
    parentId: null,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
  } as unknown as Comment;

  it('permissions: readers view, commenters reply, the author edits, the author and admins delete', () => {
    expect(commentPermissions(comment, 'bob', 'read')).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(commentPermissions(comment, 'bob', 'comment')).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions(comment, 'alice', 'comment')).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(commentPermissions(comment, 'alice', 'read')).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(commentPermissions(comment, 'bob', 'admin')).toEqual({ view: true, edit: false, reply: true, delete: true });
  });

  it('resolving sets status, resolvedAt and resolvedBy; reopening clears them; a reply has no status', () => {
    const at = new Date('2026-11-26T10:00:00Z');
    const resolved = withResolved(comment, true, 'bob', at);
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: at, resolvedBy: 'bob' });
    expect(withResolved(resolved, true, 'carol', new Date())).toBe(resolved);
    expect(withResolved(resolved, false, 'carol', at)).toMatchObject({ status: 'open', resolvedAt: null, resolvedBy: null });
    expect(() => withResolved({ ...comment, parentId: 'p' }, true, 'bob', at)).toThrow(/reply/);
  });

  it('emoji: 1 to 32 characters, no whitespace or control characters, at most 20 per request', () => {
    expect(() => checkEmojis(['👍', '🎉', ':+1:', '👩‍👩‍👧‍👦'], 'addedReactions')).not.toThrow();
    for (const bad of [[''], ['a b'], ['x'.repeat(33)], ['\u0007'], Array(21).fill('👍')])
      expect(() => checkEmojis(bad as string[], 'addedReactions')).toThrow(/addedReactions/);
    expect(() => checkEmojis(['x'.repeat(32)], 'f')).not.toThrow();
  });
});
