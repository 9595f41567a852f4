/** Organization member roles, strongest first (spec part 1 §2.1). */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants at least what `minimum` grants. */
export function roleAtLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

/** The stronger of two roles (null when both are null). */
export function strongestRole(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  if (a == null) return b ?? null;
  if (b == null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * What an organization-wide list may show its caller, by item id: everything (null: nothing is narrowed,
 * the common case, at no cost), only these items (a guest's grants), or all but these (a member's
 * restricted items). Lists filter by it in their query, so pages stay full and cursors stable.
 */
export type Narrowing = { only: readonly string[] } | { except: readonly string[] } | null;
