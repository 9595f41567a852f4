/**
 * An identity at an organization's SAML identity provider: the pair (provider, NameID), linked to a
 * Quire user. An SSO login through that provider signs in the linked user and nobody else.
 */
export interface SsoIdentity {
  providerId: string;
  nameId: string;
  userId: string;
  organizationId: string;
  createdAt: Date;
}

export abstract class SsoIdentityRepository {
  abstract find(providerId: string, nameId: string): Promise<SsoIdentity | null>;
  /** Links the identity; false when the pair is linked already (a concurrent first login). */
  abstract insert(identity: SsoIdentity): Promise<boolean>;
}

/**
 * Who a verified assertion signs in, decided before anything is written:
 * - `linked`: the (provider, NameID) pair is linked to this user;
 * - `link`: not linked yet, and the account with the asserted email is already a member of the
 *   provider's organization (added, invited or joined before): link it;
 * - `create`: no account has that email: create one and link it;
 * - `refuse`: an account with that email exists outside the organization. The IdP vouches for that
 *   email to its own organization only, so it must not reach an account Quire did not link to it.
 */
export type SsoAccountDecision =
  { kind: 'linked'; userId: string } | { kind: 'link'; userId: string } | { kind: 'create' } | { kind: 'refuse' };

export function decideSsoAccount(
  linkedUserId: string | null,
  existingUserId: string | null,
  existingIsMember: boolean,
): SsoAccountDecision {
  if (linkedUserId) return { kind: 'linked', userId: linkedUserId };
  if (!existingUserId) return { kind: 'create' };
  return existingIsMember ? { kind: 'link', userId: existingUserId } : { kind: 'refuse' };
}
