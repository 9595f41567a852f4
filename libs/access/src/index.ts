// Access: who may do what, in one place. The organization, space, collection and site permissions a role
// gives, the effective role on content (organization role, default levels, grants to the member or their
// teams), the grants port, and the Access service the contexts ask. It asks none of them: memberships are
// read from their tables, never through the organizations context (a leaf, no loop at run time).
export * from './domain/roles';
export * from './domain/grants';
export { Memberships } from './domain/memberships';
export { Access, AccessCacheSettings } from './application/access';
export type { ReadableSpaces } from './application/access';
export { AccessChanges, LocalAccessChanges } from './application/access-changes';
export type { AccessChange } from './application/access-changes';
export { AccessModule } from './access.module';
