/** Deepest JSON nesting a request body may have; deeper bodies answer 400 before any validator recurses. */
export const MAX_JSON_DEPTH = 64;

/**
 * Measures the bracket nesting of raw JSON bytes, skipping string contents. It does not parse:
 * JSON.parse still does that; this only bounds the depth for the recursive code that runs after it.
 */
export function jsonDepthExceeds(body: Buffer, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** body-parser `verify` hook: rejects too-deep bodies with a 400 the error filter understands. */
export function verifyJsonDepth(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonDepthExceeds(body)) {
    throw Object.assign(new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), { status: 400, type: 'entity.too.deep' });
  }
}
