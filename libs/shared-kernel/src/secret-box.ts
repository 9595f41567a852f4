/**
 * Port: seals secrets the service keeps at rest (webhook signing secrets; Git credentials when they come)
 * and opens them again. The app provides it (AES-256-GCM under a keyring with key ids: apps/api/src/secrets.ts);
 * adapters seal on write and open on read, so no plaintext secret is ever in a row.
 */
export abstract class SecretBox {
  abstract seal(plain: string): string;
  /** The plaintext of a sealed value; a value stored before sealing existed (plaintext) comes back as it is. */
  abstract open(stored: string): string;
  /** Is `stored` sealed at all (under any key)? False for plaintext kept from before sealing existed. */
  abstract isSealed(stored: string): boolean;
  /** Is `stored` sealed under the current key? False for plaintext and for values sealed under an older key. */
  abstract isCurrent(stored: string): boolean;
}
