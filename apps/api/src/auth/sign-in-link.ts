import type { QuireConfig } from '../config';

/** The web app's root: APP_URL, else PUBLIC_URL/app; without either, the local server's. */
export function appRoot(config: Pick<QuireConfig, 'appUrl' | 'publicUrl' | 'port'>): string {
  // (PORT=0: the port is not known yet when the first start prints it; the path on this server then.)
  const server = config.port === 0 ? '' : `http://localhost:${config.port}`;
  return (config.appUrl ?? `${config.publicUrl ?? server}/app`).replace(/\/+$/, '');
}

/**
 * The web app's page that a one-time sign-in link opens: `{APP_URL}/sign-in/link#{token}`. The token is in the
 * fragment: browsers never send it to a server, so it is in no access log.
 */
export function signInLink(config: Pick<QuireConfig, 'appUrl' | 'publicUrl' | 'port'>, token: string): string {
  return `${appRoot(config)}/sign-in/link#${token}`;
}
