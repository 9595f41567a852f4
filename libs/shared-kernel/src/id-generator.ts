import { randomBytes } from 'node:crypto';

/** Port for new identifiers: opaque strings, never derived from data. */
export abstract class IdGenerator {
  abstract next(): string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 20 base62 characters from a CSPRNG (~119 bits). */
export class RandomIdGenerator extends IdGenerator {
  next(): string {
    const bytes = randomBytes(20);
    let id = '';
    for (const b of bytes) id += ALPHABET[b % 62];
    return id;
  }
}

/** Deterministic ids for unit tests: prefix-1, prefix-2, ... */
export class SequentialIdGenerator extends IdGenerator {
  private n = 0;
  constructor(private readonly prefix = 'id') {
    super();
  }
  next(): string {
    this.n += 1;
    return `${this.prefix}${this.n}`;
  }
}
