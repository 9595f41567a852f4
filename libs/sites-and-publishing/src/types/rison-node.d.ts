declare module 'rison-node' {
  /** Rison (URI-friendly JSON) to a value; throws on a malformed string. */
  export function decode(rison: string): unknown;
  export function encode(value: unknown): string;
}
