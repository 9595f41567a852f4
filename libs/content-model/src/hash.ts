import { hash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always serialize (and hash) the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The content address of a document: SHA-256 of its canonical JSON. */
export function contentHash(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'hex');
}
