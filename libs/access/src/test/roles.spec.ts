import { ROLES } from '@app/shared-kernel';
import { collectionPermissions, contentRole, effectiveRole, organizationPermissions, spacePermissions } from '../index';

describe('content roles and permissions', () => {
  it('default levels widen, never narrow, the member role', () => {
    expect(contentRole('read', ['edit'])).toBe('edit');
    expect(contentRole('admin', ['read'])).toBe('admin');
    expect(contentRole('comment', ['inherit', 'inherit', 'review'])).toBe('review');
    expect(contentRole('comment', ['inherit', null, 'admin'])).toBe('comment');
    expect(contentRole(null, ['admin'])).toBeNull();
  });

  it('space permissions follow the role ladder', () => {
    const table = Object.fromEntries(ROLES.map((r) => [r, spacePermissions(r)]));
    expect(table.read).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
    expect(table.comment.comment).toBe(true);
    expect(table.comment.edit).toBe(false);
    expect(table.edit).toMatchObject({ edit: true, merge: true, review: false, admin: false });
    expect(table.review).toMatchObject({ review: true, admin: false });
    expect(table.create).toMatchObject({ review: true, admin: false });
    expect(Object.values(table.admin).every(Boolean)).toBe(true);
    expect(Object.values(spacePermissions(null)).some(Boolean)).toBe(false);
  });

  it('collection permissions', () => {
    expect(collectionPermissions('read')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions('admin')).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
  });
});

describe('effectiveRole', () => {
  const grants = new Map([
    ['c1', 'edit' as const],
    ['s2', 'admin' as const],
  ]);

  it('widens the organization role by the default level and the grants up the chain, never narrows it', () => {
    expect(
      effectiveRole(
        'read',
        [
          { id: 's1', level: 'inherit' },
          { id: 'c1', level: 'comment' },
        ],
        new Map(),
      ),
    ).toBe('comment');
    expect(
      effectiveRole(
        'read',
        [
          { id: 's1', level: 'inherit' },
          { id: 'c1', level: 'inherit' },
        ],
        grants,
      ),
    ).toBe('edit');
    expect(effectiveRole('read', [{ id: 's2', level: 'inherit' }], grants)).toBe('admin');
    expect(effectiveRole('admin', [{ id: 's1', level: 'read' }], grants)).toBe('admin');
  });

  it('gives non-members nothing, whatever is granted', () => {
    expect(effectiveRole(null, [{ id: 's2', level: 'admin' }], grants)).toBeNull();
  });
});

describe('organizationPermissions', () => {
  it('follows the role ladder, and gives non-members nothing', () => {
    expect(organizationPermissions('admin').admin).toBe(true);
    expect(organizationPermissions('create')).toMatchObject({ admin: false, createContent: true, listMembers: true });
    expect(Object.values(organizationPermissions(null)).some(Boolean)).toBe(false);
  });
});
