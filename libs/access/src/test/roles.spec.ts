import { Role, ROLES } from '@app/shared-kernel';
import { collectionPermissions, effectiveRole, effectiveRoles, organizationPermissions, sitePermissions, spacePermissions } from '../index';

describe('content roles and permissions', () => {
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

  it('site permissions: every member views, edit edits, create shapes the structure, admin the rest', () => {
    const base = { view: true, access: true, viewAdaptiveSchema: true };
    expect(sitePermissions('read')).toEqual({
      ...base,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      editAdaptiveSchema: false,
    });
    expect(sitePermissions('comment')).toEqual(sitePermissions('read'));
    expect(sitePermissions('edit')).toMatchObject({ edit: true, create: false, admin: false });
    expect(sitePermissions('review')).toMatchObject({ edit: true, create: false, admin: false });
    expect(sitePermissions('create')).toMatchObject({ edit: true, create: true, admin: false, editAdaptiveSchema: false });
    expect(Object.values(sitePermissions('admin')).every(Boolean)).toBe(true);
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

  it('default levels: the nearest level that is not inherit widens the member role; null restricts it', () => {
    const chain = (...levels: (Role | 'inherit' | null)[]) => levels.map((level, i) => ({ id: `x${i}`, level }));
    expect(effectiveRole('read', chain('edit'), new Map())).toBe('edit');
    expect(effectiveRole('admin', chain('read'), new Map())).toBe('admin');
    expect(effectiveRole('comment', chain('inherit', 'inherit', 'review'), new Map())).toBe('review');
    expect(effectiveRole('comment', chain('inherit', 'inherit'), new Map())).toBe('comment');
    // Restricted: inherit under a restricted collection is restricted, the nearest role level opens it again.
    expect(effectiveRole('edit', chain(null), new Map())).toBeNull();
    expect(effectiveRole('edit', chain('inherit', null, 'admin'), new Map())).toBeNull();
    expect(effectiveRole('edit', chain('read', null), new Map())).toBe('edit');
    // Organization admins are never narrowed; a grant on the item or a parent opens it.
    expect(effectiveRole('admin', chain(null), new Map())).toBe('admin');
    expect(effectiveRole('read', chain('inherit', null), new Map([['x1', 'comment' as const]]))).toBe('comment');
    expect(effectiveRole('read', chain(null, 'inherit'), new Map([['x0', 'read' as const]]))).toBe('read');
  });

  it('guests reach only what is granted to them, on the item or a parent, whatever the default levels', () => {
    expect(effectiveRole('guest', [{ id: 's1', level: 'admin' }], new Map())).toBeNull();
    expect(
      effectiveRole(
        'guest',
        [
          { id: 's1', level: 'inherit' },
          { id: 'c1', level: 'inherit' },
        ],
        grants,
      ),
    ).toBe('edit');
    expect(effectiveRole('guest', [{ id: 's2', level: null }], grants)).toBe('admin');
  });

  it('aggregate lists leave out the members a restricted item is closed to, and guests without a grant', () => {
    const members = [
      { userId: 'ann', role: 'admin' as const },
      { userId: 'bob', role: 'read' as const },
      { userId: 'gus', role: 'guest' as const },
      { userId: 'tia', role: 'read' as const },
    ];
    const grant = (id: string, principal: { kind: 'user' | 'team'; id: string }, role: Role) => ({
      organizationId: 'o',
      content: { kind: 'space' as const, id },
      principal,
      role,
      grantedAt: new Date(0),
    });
    const rows = effectiveRoles(
      members,
      [{ id: 's1', level: null }],
      [grant('s1', { kind: 'user', id: 'gus' }, 'comment'), grant('s1', { kind: 'team', id: 't1' }, 'read')],
      [{ teamId: 't1', userId: 'tia' }],
    );
    expect(rows.map((r) => [r.userId, r.role, r.organizationRole, r.via])).toEqual([
      ['ann', 'admin', 'admin', null],
      ['gus', 'comment', null, { kind: 'user' }],
      ['tia', 'read', 'read', { kind: 'team', id: 't1' }],
    ]);
  });
});

describe('organizationPermissions', () => {
  it('follows the role ladder, and gives non-members nothing', () => {
    expect(organizationPermissions('admin').admin).toBe(true);
    expect(organizationPermissions('create')).toMatchObject({ admin: false, createContent: true, listMembers: true });
    expect(Object.values(organizationPermissions(null)).some(Boolean)).toBe(false);
  });
});
