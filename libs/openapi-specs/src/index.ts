// The public surface of the openapi-specs context. Other contexts import only this file.
export { OpenApiSpecsModule } from './openapi-specs.module';
export { OpenApiSpecsService } from './application/openapi-specs.service';
export { OpenApiProcessing, PROCESS_QUEUE, SWEEP_QUEUE } from './application/openapi-processing.service';
export { OpenApiSettings } from './application/openapi-settings';
export { OpenApiOperations } from './application/openapi-operations';
export { ComputedReference } from './application/computed-reference.service';
export type { BodyView, OperationView, ParameterView, ResponseView, SchemaView } from './domain/operation-view';
// Pure views of a parsed document (a spec file of a space is read with them too).
export { operationView, schemasView, webhookView } from './domain/operation-view';
export { OPENAPI_EVENT_TYPES } from './application/openapi-events';
export type { OpenApiEventType } from './application/openapi-events';
// The parser port (the served OpenAPI document is checked with the app's adapter too).
export { SpecParser } from './domain/openapi-spec';
