// The Nest/Swagger kit every context's controllers share: decorators, list and error envelopes,
// URL building, validation helpers. Framework code; domain code imports @app/shared-kernel only.
export * from './decorators';
export * from './links';
export * from './list.dto';
export * from './error.dto';
export * from './api-errors';
export * from './delete-status';
export * from './satisfies';
export * from './validation';
export * from './rendered-lists';
export * from './schema-components';
export * from './front-door';
