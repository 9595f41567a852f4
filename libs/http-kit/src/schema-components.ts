/**
 * Schemas a controller's answers refer to that no DTO class describes (an official JSON Schema a context
 * already holds, converted): registered when the controller's module is loaded, added to the served
 * document's `components.schemas` by the app (apps/api/src/swagger.ts), as Nest's own metadata is.
 */
const registered = new Map<string, object>();

export function addSchemaComponents(schemas: Record<string, object>): void {
  for (const [name, schema] of Object.entries(schemas)) registered.set(name, schema);
}

export function schemaComponents(): Record<string, object> {
  return Object.fromEntries(registered);
}
