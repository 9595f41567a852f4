/** Configuration of OpenAPI processing (set by the application). */
export abstract class OpenApiSettings {
  /** Hosts a source URL may resolve to a loopback, private or link-local address (tests, internal mirrors). */
  abstract readonly privateHostAllowlist: string[];
  abstract readonly fetchTimeoutMs: number;
}
