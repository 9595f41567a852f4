import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSync } from 'json-schema-faker';
import { officialValidator } from './official-schemas';

interface Spec {
  components: { schemas: Record<string, { oneOf?: { $ref: string }[] }> };
}

/**
 * Documents generated from the official `JSONDocument` schema (@gitbook/api's spec/openapi.json) with
 * json-schema-faker, each confirmed valid by Ajv against the same schema: what an official client may
 * send wherever the API takes a document. Deterministic (seeded), so a failure names its seed.
 *
 * Generated from the document root, json-schema-faker's depth budget runs out before it reaches any
 * text (every leaf is deep inside blocks). So each document is a paragraph and three top-level blocks,
 * each generated from its own official schema with a fresh budget, the types taken in turn so that every
 * official block type comes up; the whole document is then validated.
 */
export function officialDocuments(count: number, firstSeed = 1): { seed: number; document: Record<string, unknown> }[] {
  const spec = JSON.parse(readFileSync(join(process.cwd(), 'node_modules', '@gitbook/api', 'spec', 'openapi.json'), 'utf8')) as Spec;
  const schemas = spec.components.schemas;
  const refs = (name: string) => (schemas[name].oneOf ?? []).map((x) => x.$ref.split('/').pop()!);
  const types = refs('DocumentBlocksTopLevels').flatMap((r) => (schemas[r].oneOf ? refs(r) : [r]));
  const block = (name: string, seed: number) =>
    generateSync(
      { $ref: `#/components/schemas/${name}`, components: spec.components },
      { seed, maxDepth: 7, refDepthMax: 5, minItems: 1, maxItems: 2, minLength: 1, maxLength: 24, optionalsProbability: 0.5 },
    );
  const validator = officialValidator();
  const out: { seed: number; document: Record<string, unknown> }[] = [];
  for (let seed = firstSeed; out.length < count && seed < firstSeed + count * 10; seed++) {
    const names = ['DocumentBlockParagraph', ...[0, 1, 2].map((i) => types[(seed * 3 + i) % types.length])];
    const document = { object: 'document', data: {}, nodes: names.map((name, i) => block(name, seed * 10 + i)) };
    if (validator.check('JSONDocument', document) === '') out.push({ seed, document });
  }
  if (out.length < count) throw new Error(`only ${out.length} valid documents generated`);
  return out;
}

/** Every leaf text of a document (what must come back). */
export function leafTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(leafTexts);
  if (!node || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  const own = n.object === 'leaf' && typeof n.text === 'string' && n.text.length > 0 ? [n.text] : [];
  return [...own, ...Object.entries(n).flatMap(([k, v]) => (k === 'text' ? [] : leafTexts(v)))];
}

/** Every block and inline type a document holds. */
export function nodeTypes(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(nodeTypes);
  if (!node || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  const own = (n.object === 'block' || n.object === 'inline') && typeof n.type === 'string' ? [n.type] : [];
  return [...own, ...Object.values(n).flatMap(nodeTypes)];
}
