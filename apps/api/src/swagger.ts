import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { schemaComponents } from '@app/http-kit';

/** The OpenAPI document, generated from controllers and DTOs (Swagger CLI plugin). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Quire API')
    .setDescription(
      'Self-hostable documentation-platform API, wire-compatible with the GitBook API v1. ' +
        'Every operation except health needs `Authorization: Bearer <token>`. Errors use `{ "error": { "code", "message" } }`; ' +
        'lists use `{ items, count, next?: { page } }`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API token (shown once when created)' }, 'user')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  // Schemas the controllers registered that no DTO class describes (the official customization settings).
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...schemaComponents() } };
  return document;
}

/** Serves Swagger UI at /docs and the JSON document at /docs-json (both public). */
export function mountSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml', customSiteTitle: 'Quire API' });
  return document;
}
