// Access: who may do what. The organization, space, collection and site permissions a role gives, the
// effective role on content (organization role, default levels, grants to the member or their teams),
// and the grants port. Pure and framework-free: a leaf that the contexts and the wire objects use.
export * from './domain/roles';
export * from './domain/grants';
