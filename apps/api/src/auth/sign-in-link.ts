import type { QuireConfig } from '../config';

/**
 * The web app's page that a one-time sign-in link opens: `{APP_URL}/sign-in/link#{token}` (APP_URL defaults to
 * PUBLIC_URL/app; without either, the local server's). The token is in the fragment: browsers never send it
 * to a server, so it is in no access log.
 */
export function signInLink(config: Pick<QuireConfig, 'appUrl' | 'publicUrl' | 'port'>, token: string): string {
  // (PORT=0: the port is not known yet when the first start prints it; the path on this server then.)
  const server = config.port === 0 ? '' : `http://localhost:${config.port}`;
  const app = config.appUrl ?? `${config.publicUrl ?? server}/app`;
  return `${app.replace(/\/+$/, '')}/sign-in/link#${token}`;
}
