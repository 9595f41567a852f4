import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import jsep from 'jsep';
import { InvalidInputError } from '@app/shared-kernel';
import { CONDITION_MAX } from './site';

/**
 * Adaptive content: the visitor schema of a site (spec part 2 §2.1) and the condition expressions of
 * sections and site spaces, evaluated against a visitor's claims.
 */

export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
export const CLAIMS_MAX = 100;

const claim = {
  type: 'object',
  required: ['type', 'description'],
  additionalProperties: false,
  properties: { type: { const: 'boolean' }, description: { type: 'string', minLength: 1, maxLength: 500 } },
};

/** What spec §2.1 allows an adaptive schema to be (itself a JSON Schema, checked by Ajv). */
const ADAPTIVE_META_SCHEMA = {
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    additionalProperties: { const: false },
    properties: {
      type: 'object',
      maxProperties: CLAIMS_MAX,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
      properties: {
        unsigned: {
          type: 'object',
          required: ['type', 'description', 'properties', 'additionalProperties'],
          additionalProperties: false,
          properties: {
            type: { const: 'object' },
            description: { const: UNSIGNED_DESCRIPTION },
            additionalProperties: { const: false },
            properties: {
              type: 'object',
              maxProperties: CLAIMS_MAX,
              propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
              additionalProperties: claim,
            },
          },
        },
      },
      additionalProperties: claim,
    },
  },
};

let compiled: { ajv: Ajv; meta: ValidateFunction } | null = null;

/** Ajv and the meta-schema's validator, made on first use (a site without adaptive content never needs them). */
function validators(): { ajv: Ajv; meta: ValidateFunction } {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: false, strict: true });
  compiled = { ajv, meta: ajv.compile(ADAPTIVE_META_SCHEMA) };
  return compiled;
}

function describe(errors: ErrorObject[] | null | undefined, root: string): string {
  const e = errors?.[0];
  if (!e) return `${root} is invalid`;
  const where = `${root}${e.instancePath}`;
  if (e.propertyName !== undefined)
    return `${where} has a property name "${e.propertyName}" that is not an identifier (letters, digits, "_")`;
  if (e.keyword === 'const') return `${where} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  if (e.keyword === 'additionalProperties')
    return `${where} has an unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'propertyNames') return `${where} has a property name that is not an identifier (letters, digits, "_")`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

export type AdaptiveJsonSchema = {
  type: 'object';
  properties: Record<string, { type: string; description: string; properties?: Record<string, { description: string }> }>;
  additionalProperties: false;
};

/** The schema as given when it is one spec §2.1 allows; else a 400 naming the first problem. */
export function checkAdaptiveJsonSchema(value: unknown): AdaptiveJsonSchema {
  const { ajv, meta: checkAdaptiveSchema } = validators();
  if (!checkAdaptiveSchema(value)) throw new InvalidInputError(describe(checkAdaptiveSchema.errors, 'jsonSchema'));
  // Ajv itself must accept it as a draft-07 schema: it is what visitor claims are validated with.
  ajv.compile(value as object);
  return value as AdaptiveJsonSchema;
}

/** Suggested conditions: one per boolean claim (`visitor.claims.<name>`, `visitor.claims.unsigned.<name>`). */
export function templateConditions(schema: AdaptiveJsonSchema | null): { description: string; condition: string }[] {
  if (!schema) return [];
  const out: { description: string; condition: string }[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name === 'unsigned') {
      for (const [inner, p] of Object.entries(property.properties ?? {}))
        out.push({ description: p.description, condition: `visitor.claims.unsigned.${inner}` });
    } else out.push({ description: property.description, condition: `visitor.claims.${name}` });
  }
  return out;
}

const claimValidators = new Map<string, ValidateFunction>();

/** Visitor claims checked against the site's schema (400 when they do not fit); no schema: no claims. */
export function checkClaims(schema: AdaptiveJsonSchema | null, claims: unknown): Record<string, unknown> {
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new InvalidInputError('claims must be a JSON object');
  if (!schema) {
    if (Object.keys(claims).length > 0) throw new InvalidInputError('This site has no adaptive schema: it takes no claims');
    return {};
  }
  const key = JSON.stringify(schema);
  let validate = claimValidators.get(key);
  if (!validate) {
    if (claimValidators.size > 1000) claimValidators.clear();
    validate = validators().ajv.compile(schema);
    claimValidators.set(key, validate);
  }
  if (!validate(claims)) throw new InvalidInputError(describe(validate.errors, 'claims'));
  return claims as Record<string, unknown>;
}

/**
 * The claims of one visitor. On a `visitor-auth` site the signed claims come from their token (only
 * those the schema declares are kept: issuers add their own) and the visitor may add `unsigned` ones
 * only; elsewhere every claim is the visitor's word (`given`). Checked against the schema either way.
 */
export function visitorClaims(
  schema: AdaptiveJsonSchema | null,
  given: unknown,
  signed: Record<string, unknown> | null,
): Record<string, unknown> {
  if (signed === null) return checkClaims(schema, given);
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new InvalidInputError('claims must be a JSON object');
  const extra = Object.keys(given).filter((k) => k !== 'unsigned');
  if (extra.length)
    throw new InvalidInputError(`claims "${extra[0]}" of a visitor-auth site come from the visitor token, not visitorClaims`);
  if (!schema) return {};
  const declared = Object.keys(schema.properties).filter((k) => k !== 'unsigned');
  const kept = Object.fromEntries(Object.entries(signed).filter(([k]) => declared.includes(k)));
  return checkClaims(schema, { ...kept, ...given });
}

// ---------------------------------------------------------------------------------------------
// Conditions: parsed by jsep (no eval), evaluated here over a whitelist of node types.

type Node = jsep.Expression;
const BINARY = new Set(['&&', '||', '==', '!=', '===', '!==', '<', '<=', '>', '>=']);
const UNARY = new Set(['!', '-']);
const FORBIDDEN_NAMES = new Set(['__proto__', 'prototype', 'constructor']);

/** A parsed, checked condition: only `visitor.…` member paths, literals, `!`, comparisons, `&&`, `||`, `?:`, `.includes(x)`. */
export class Condition {
  private constructor(
    readonly source: string,
    private readonly ast: Node,
  ) {}

  static parse(source: string): Condition {
    if (source.length > CONDITION_MAX) throw new InvalidInputError(`condition must be at most ${CONDITION_MAX} characters`);
    let ast: Node;
    try {
      ast = jsep(source);
    } catch (e) {
      throw new InvalidInputError(`condition is not a valid expression: ${(e as Error).message}`);
    }
    check(ast, source);
    return new Condition(source, ast);
  }

  /** True when a visitor with these claims sees the item. */
  test(claims: Record<string, unknown>): boolean {
    return Boolean(evaluate(this.ast, { visitor: { claims } }));
  }
}

function check(node: Node, source: string): void {
  const fail = (what: string): never => {
    throw new InvalidInputError(`condition "${source.slice(0, 80)}": ${what}`);
  };
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      if (node.name !== 'visitor') fail(`unknown name "${node.name as string}" (conditions read "visitor.claims…")`);
      return;
    case 'MemberExpression': {
      const property = node.property as Node;
      if (node.computed) {
        if (property.type !== 'Literal' || typeof property.value !== 'string') fail('computed members must be string literals');
        if (FORBIDDEN_NAMES.has(property.value as string)) fail(`"${property.value as string}" cannot be read`);
      } else if (property.type !== 'Identifier' || FORBIDDEN_NAMES.has(property.name as string)) fail('invalid member');
      return check(node.object as Node, source);
    }
    case 'UnaryExpression':
      if (!UNARY.has(node.operator as string)) fail(`operator "${node.operator as string}" is not allowed`);
      return check(node.argument as Node, source);
    case 'BinaryExpression':
      if (!BINARY.has(node.operator as string)) fail(`operator "${node.operator as string}" is not allowed`);
      check(node.left as Node, source);
      return check(node.right as Node, source);
    case 'ConditionalExpression':
      check(node.test as Node, source);
      check(node.consequent as Node, source);
      return check(node.alternate as Node, source);
    case 'CallExpression': {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      if (callee.type !== 'MemberExpression' || callee.computed || (callee.property as Node).name !== 'includes' || args.length !== 1)
        fail('the only call allowed is ".includes(value)"');
      check(callee.object as Node, source);
      return check(args[0], source);
    }
    default:
      fail(`${node.type} is not allowed`);
  }
}

function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function evaluate(node: Node, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier':
      return own(scope, node.name as string);
    case 'MemberExpression': {
      const property = node.property as Node;
      const key = node.computed ? (property.value as string) : (property.name as string);
      return own(evaluate(node.object as Node, scope), key);
    }
    case 'UnaryExpression': {
      const v = evaluate(node.argument as Node, scope);
      return node.operator === '!' ? !v : -Number(v);
    }
    case 'BinaryExpression': {
      if (node.operator === '&&') return evaluate(node.left as Node, scope) && evaluate(node.right as Node, scope);
      if (node.operator === '||') return evaluate(node.left as Node, scope) || evaluate(node.right as Node, scope);
      const l = evaluate(node.left as Node, scope) as number;
      const r = evaluate(node.right as Node, scope) as number;
      switch (node.operator) {
        case '==':
        case '===':
          return l === r;
        case '!=':
        case '!==':
          return l !== r;
        case '<':
          return l < r;
        case '<=':
          return l <= r;
        case '>':
          return l > r;
        default:
          return l >= r;
      }
    }
    case 'ConditionalExpression':
      return evaluate(node.test as Node, scope) ? evaluate(node.consequent as Node, scope) : evaluate(node.alternate as Node, scope);
    case 'CallExpression': {
      const target = evaluate((node.callee as Node).object as Node, scope);
      const arg = evaluate((node.arguments as Node[])[0], scope);
      return Array.isArray(target)
        ? target.includes(arg)
        : typeof target === 'string' && typeof arg === 'string'
          ? target.includes(arg)
          : false;
    }
    default:
      return undefined;
  }
}
