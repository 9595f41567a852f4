import { organizationPermissions } from '@app/access';
import { decideSsoAccount } from '../domain/sso-identity';
import { InvalidInputError } from '@app/shared-kernel';
import { applyOrganizationPatch, mergeRuleUsers, newOrganization } from '../domain/organization';
import { mergeRulesProblem } from '../http/organization.dto';

const now = new Date('2026-01-01T00:00:00Z');

describe('organization rules', () => {
  const org = newOrganization('o1', '  Acme  ', ['Example.COM'], now);

  it('creates with the official defaults', () => {
    expect(org).toMatchObject({
      title: 'Acme',
      emailDomains: ['example.com'],
      type: 'business',
      plan: 'free',
      inviteLinks: true,
      mergeRules: { type: 'none' },
    });
  });

  it('enforces title 2..255 and hostname 3..32', () => {
    expect(() => applyOrganizationPatch(org, { title: 'A' })).toThrow(InvalidInputError);
    expect(() => applyOrganizationPatch(org, { title: 'x'.repeat(256) })).toThrow(InvalidInputError);
    expect(applyOrganizationPatch(org, { title: 'x'.repeat(255) }).title).toHaveLength(255);
    expect(() => applyOrganizationPatch(org, { hostname: 'ab' })).toThrow(InvalidInputError);
    expect(() => applyOrganizationPatch(org, { hostname: 'a'.repeat(33) })).toThrow(InvalidInputError);
    expect(() => applyOrganizationPatch(org, { hostname: '-abc' })).toThrow(InvalidInputError);
    expect(applyOrganizationPatch(org, { hostname: 'ACME-docs' }).hostname).toBe('acme-docs');
  });

  it('validates email domains', () => {
    expect(() => applyOrganizationPatch(org, { emailDomains: ['not a domain'] })).toThrow(InvalidInputError);
    expect(applyOrganizationPatch(org, { emailDomains: ['a.io', 'A.io'] }).emailDomains).toEqual(['a.io']);
  });

  it('does not mutate the input', () => {
    applyOrganizationPatch(org, { title: 'Other' });
    expect(org.title).toBe('Acme');
  });

  it('collects the users named by merge rules', () => {
    expect(mergeRuleUsers({ type: 'none' })).toEqual([]);
    expect(
      mergeRuleUsers({
        type: 'rules',
        rules: [
          { rule: 'require_specific_reviewers', users: ['u1', 'u2'] },
          { rule: 'allow_bypass', users: ['u1'] },
          { rule: 'require_at_least_one_review' },
        ],
      }),
    ).toEqual(['u1', 'u2']);
  });

  it('validates the merge rules union of the official document', () => {
    expect(mergeRulesProblem({ type: 'none' })).toBeNull();
    expect(mergeRulesProblem({ type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] })).toBeNull();
    expect(mergeRulesProblem({ type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] })).toMatch(/users/);
    expect(mergeRulesProblem({ type: 'rules', rules: [{ rule: 'made_up' }] })).toMatch(/unknown rule/);
    expect(mergeRulesProblem({ type: 'inherit' })).toMatch(/type/);
  });

  it('computes permissions from the role', () => {
    expect(organizationPermissions('admin').admin).toBe(true);
    expect(organizationPermissions('create')).toMatchObject({ admin: false, createContent: true, listMembers: true });
    expect(organizationPermissions('read')).toMatchObject({ view: true, createContent: false, viewBilling: false });
    expect(Object.values(organizationPermissions(null)).some(Boolean)).toBe(false);
  });
});

describe('decideSsoAccount', () => {
  it('signs in the linked user, links a member, creates for a new email, refuses an outside account', () => {
    expect(decideSsoAccount('u1', 'u2', false)).toEqual({ kind: 'linked', userId: 'u1' });
    expect(decideSsoAccount(null, 'u2', true)).toEqual({ kind: 'link', userId: 'u2' });
    expect(decideSsoAccount(null, null, false)).toEqual({ kind: 'create' });
    expect(decideSsoAccount(null, 'u2', false)).toEqual({ kind: 'refuse' });
  });
});
