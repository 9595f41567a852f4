import {
  BillingProduct,
  InvalidInputError,
  OrganizationCommunityType,
  OrganizationType,
  OrganizationUseCase,
  Role,
} from '@app/shared-kernel';

export const MERGE_RULE_KINDS_WITH_USERS = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
export const MERGE_RULE_KINDS_PLAIN = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

export type MergeRule =
  { rule: (typeof MERGE_RULE_KINDS_WITH_USERS)[number]; users: string[] } | { rule: (typeof MERGE_RULE_KINDS_PLAIN)[number] };

/** Organization-level merge rules (official MergeRulesStandaloneConfiguration). */
export type OrganizationMergeRules = { type: 'none' } | { type: 'rules'; rules: MergeRule[] };

export interface DefaultContent {
  type: 'site';
  site: string;
}

export interface Organization {
  id: string;
  title: string;
  createdAt: Date;
  emailDomains: string[];
  hostname: string | null;
  type: OrganizationType;
  useCase: OrganizationUseCase | null;
  communityType: OrganizationCommunityType | null;
  defaultRole: Role | null;
  defaultContent: DefaultContent | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: BillingProduct;
  mergeRules: OrganizationMergeRules;
  logo: string | null;
}

export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: DefaultContent | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: OrganizationMergeRules;
}

export const TITLE_MIN = 2;
export const TITLE_MAX = 255;
export const HOSTNAME_MIN = 3;
export const HOSTNAME_MAX = 32;
/** Hostnames are DNS labels: lowercase letters, digits and inner hyphens. */
export const HOSTNAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const EMAIL_DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const MAX_EMAIL_DOMAINS = 100;

export function newOrganization(id: string, title: string, emailDomains: string[], now: Date): Organization {
  return {
    id,
    title: checkTitle(title),
    createdAt: now,
    emailDomains: checkEmailDomains(emailDomains),
    hostname: null,
    type: 'business',
    useCase: null,
    communityType: null,
    defaultRole: null,
    defaultContent: null,
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'free',
    mergeRules: { type: 'none' },
    logo: null,
  };
}

function checkTitle(title: string): string {
  const t = title.trim();
  if (t.length < TITLE_MIN || t.length > TITLE_MAX) {
    throw new InvalidInputError(`title must be ${TITLE_MIN} to ${TITLE_MAX} characters`);
  }
  return t;
}

function checkEmailDomains(domains: string[]): string[] {
  if (domains.length > MAX_EMAIL_DOMAINS) throw new InvalidInputError(`emailDomains accepts at most ${MAX_EMAIL_DOMAINS} domains`);
  const normalized = domains.map((d) => d.trim().toLowerCase());
  for (const d of normalized) {
    if (!EMAIL_DOMAIN_PATTERN.test(d)) throw new InvalidInputError(`emailDomains: "${d}" is not a domain name`);
  }
  return [...new Set(normalized)];
}

/** Applies a validated PATCH; returns the new state (the input is not mutated). */
export function applyOrganizationPatch(org: Organization, patch: OrganizationPatch): Organization {
  const next: Organization = { ...org };
  if (patch.title !== undefined) next.title = checkTitle(patch.title);
  if (patch.emailDomains !== undefined) next.emailDomains = checkEmailDomains(patch.emailDomains);
  if (patch.hostname !== undefined) {
    const h = patch.hostname.toLowerCase();
    if (h.length < HOSTNAME_MIN || h.length > HOSTNAME_MAX || !HOSTNAME_PATTERN.test(h)) {
      throw new InvalidInputError(`hostname must be ${HOSTNAME_MIN} to ${HOSTNAME_MAX} lowercase letters, digits or inner hyphens`);
    }
    next.hostname = h;
  }
  if (patch.defaultRole !== undefined) next.defaultRole = patch.defaultRole;
  if (patch.defaultContent !== undefined) next.defaultContent = patch.defaultContent;
  if (patch.logo !== undefined) next.logo = patch.logo;
  if (patch.sso !== undefined) next.sso = patch.sso;
  if (patch.ai !== undefined) next.ai = patch.ai;
  if (patch.inviteLinks !== undefined) next.inviteLinks = patch.inviteLinks;
  if (patch.mergeRules !== undefined) next.mergeRules = patch.mergeRules;
  return next;
}

/** User ids that merge rules name; each must be a member of the organization. */
export function mergeRuleUsers(rules: OrganizationMergeRules): string[] {
  if (rules.type !== 'rules') return [];
  return [...new Set(rules.rules.flatMap((r) => ('users' in r ? r.users : [])))];
}

export abstract class OrganizationRepository {
  abstract findById(id: string): Promise<Organization | null>;
  abstract insert(org: Organization): Promise<void>;
  /** Writes the fields that differ between `before` and `after`, if the row still holds what was read there. */
  abstract update(before: Organization, after: Organization): Promise<boolean>;
  abstract hostnameTaken(hostname: string, exceptOrganizationId: string): Promise<boolean>;
  /** The organizations whose `emailDomains` include this one (lower case), the oldest first, at most `limit`. */
  abstract withEmailDomain(domain: string, limit: number): Promise<Organization[]>;
}

/** At most this many organizations answer `getOrganizationsForEmailDomain` (the official operation has no pages). */
export const ORGANIZATIONS_FOR_DOMAIN_MAX = 100;
