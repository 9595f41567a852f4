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

/**
 * Wrong-typed variants of an official document: one block's or inline's `data` or `meta`, the document's own
 * `data`, a text's `leaves` or a leaf's `marks` made a string, an array or `null`, the node chosen by `seed`.
 * Each is confirmed refused by the official schema (Ajv): what must answer 400, never be filled in as empty.
 * `where` names the field as Quire's message does (`nodes[0].nodes[1].data`).
 */
export function wrongTypedDocuments(
  document: Record<string, unknown>,
  seed: number,
): { where: string; document: Record<string, unknown> }[] {
  const validator = officialValidator();
  const nodes: { path: string; node: Record<string, unknown> }[] = [];
  const texts: { path: string; node: Record<string, unknown> }[] = [];
  const walk = (list: unknown, path: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((n, i) => {
      if (!n || typeof n !== 'object') return;
      const node = n as Record<string, unknown>;
      const here = `${path}[${i}]`;
      if (node.object === 'block' || node.object === 'inline') nodes.push({ path: here, node });
      if (node.object === 'text') texts.push({ path: here, node });
      walk(node.nodes, `${here}.nodes`);
    });
  };
  walk(document.nodes, 'nodes');
  const out: { where: string; document: Record<string, unknown> }[] = [];
  const wrongs: unknown[] = ['x', [], null];
  const variant = (mutate: (copy: Record<string, unknown>) => void, where: string) => {
    const copy = structuredClone(document);
    mutate(copy);
    if (validator.check('JSONDocument', copy) !== '') out.push({ where, document: copy });
  };
  /** The node at `path` ("nodes[0].nodes[1]") of a copy. */
  const at = (copy: Record<string, unknown>, path: string) =>
    path.split('.').reduce<unknown>((cur, part) => {
      const m = /^nodes\[(\d+)\]$/.exec(part)!;
      return ((cur as Record<string, unknown>).nodes as unknown[])[Number(m[1])];
    }, copy) as Record<string, unknown>;
  const wrong = wrongs[seed % wrongs.length];
  const node = nodes[seed % nodes.length];
  for (const field of ['data', 'meta'])
    variant((copy) => {
      at(copy, node.path)[field] = wrong;
    }, `${node.path}.${field}`);
  variant((copy) => {
    copy.data = wrongs[(seed + 1) % wrongs.length];
  }, 'data');
  const text = texts[seed % Math.max(texts.length, 1)];
  if (text) {
    variant((copy) => {
      at(copy, text.path).leaves = 'x';
    }, `${text.path}.leaves`);
    const leaves = text.node.leaves as unknown[];
    if (Array.isArray(leaves) && leaves.length)
      variant((copy) => {
        (at(copy, text.path).leaves as Record<string, unknown>[])[0].marks = 'x';
      }, `${text.path}.leaves[0].marks`);
  }
  return out;
}
