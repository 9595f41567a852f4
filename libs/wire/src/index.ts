// The wire objects of the official API that several contexts' controllers share: the user, team and
// organization objects, spaces and collections, revisions and pages, files, links and content locations,
// and the content-permission requests and responses. DTO classes (class-validator for requests, Swagger
// from the code) and their mapping functions. It imports only the leaves at run time (the shared kernel,
// the HTTP kit, the content model, access) and the contexts' types, so every context's HTTP layer may use it.
export * from './user.dto';
export * from './team.dto';
export * from './organization.dto';
export * from './space.dto';
export * from './revision.dto';
export * from './files.dto';
export * from './files-page';
export * from './links.dto';
export * from './content-permissions.dto';
export * from './rendered.dto';
