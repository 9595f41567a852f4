/** Builds the absolute URLs of resources: `location` in the API, `app` in the web app. */
export class Links {
  constructor(
    /** e.g. https://quire.example.com (no trailing slash) */
    readonly origin: string,
    /** e.g. https://quire.example.com/app */
    readonly appOrigin: string,
  ) {}

  api(path: string): string {
    return `${this.origin}/v1${path}`;
  }

  app(path: string): string {
    return `${this.appOrigin}${path}`;
  }
}
