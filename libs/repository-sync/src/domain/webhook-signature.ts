import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether a push webhook comes from the Git host that holds the space's webhook secret: GitHub and Gitea sign
 * the body (an HMAC-SHA256 under the secret: `X-Hub-Signature-256: sha256=…`, `X-Gitea-Signature`), GitLab sends
 * the secret itself as its token (`X-GitLab-Token`). Compared in constant time.
 */
export function webhookSigned(header: (name: string) => string | undefined, body: Buffer, secret: string): boolean {
  const hmac = createHmac('sha256', secret).update(body).digest('hex');
  const github = header('x-hub-signature-256');
  const gitea = header('x-gitea-signature');
  const gitlab = header('x-gitlab-token');
  return (
    (github !== undefined && same(github, `sha256=${hmac}`)) ||
    (gitea !== undefined && same(gitea, hmac)) ||
    (gitlab !== undefined && same(gitlab, secret))
  );
}

/** Equal strings, compared in constant time. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
