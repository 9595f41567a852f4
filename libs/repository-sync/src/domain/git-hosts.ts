/**
 * The Git hosts whose web pages Quire links to ("Edit on GitHub"), and the shape of their edit URLs. A host is
 * known by its name (github.com, gitlab.com, bitbucket.org, codeberg.org, or a name that says it: `gitlab.example.com`)
 * or by the deployment's QUIRE_GIT_HOSTS (`git.example.com=gitea`); other hosts get no edit link.
 */
export type GitHostKind = 'github' | 'gitlab' | 'gitea' | 'bitbucket';
export const GIT_HOST_KINDS: readonly GitHostKind[] = ['github', 'gitlab', 'gitea', 'bitbucket'];

const LABELS: Record<GitHostKind, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'the Git host', bitbucket: 'Bitbucket' };

/** The kind of a host: configured first, then by its name; null when unknown. */
export function gitHostKind(hostname: string, configured: ReadonlyMap<string, GitHostKind>): GitHostKind | null {
  const host = hostname.toLowerCase();
  const set = configured.get(host);
  if (set) return set;
  if (/(^|[.-])github([.-]|$)/.test(host)) return 'github';
  if (/(^|[.-])gitlab([.-]|$)/.test(host)) return 'gitlab';
  if (/(^|[.-])bitbucket([.-]|$)/.test(host)) return 'bitbucket';
  if (/(^|[.-])(gitea|forgejo|codeberg)([.-]|$)/.test(host)) return 'gitea';
  return null;
}

/** A link to edit one file of a repository's branch on its host's web pages. */
export interface EditLink {
  url: string;
  /** "Edit on GitHub" */
  label: string;
}

/**
 * The page where a file of the repository at `remote` (an http(s) clone URL, credentials never in it) is edited
 * on `ref` (`refs/heads/main`); null for a host of no known kind, a ref that is no branch, or a URL that is
 * not http(s).
 */
export function editLink(remote: string, ref: string, file: string, configured: ReadonlyMap<string, GitHostKind>): EditLink | null {
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const kind = gitHostKind(url.hostname, configured);
  const branch = /^refs\/heads\/(.+)$/.exec(ref)?.[1];
  if (!kind || !branch) return null;
  const repo = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`;
  const path = [...branch.split('/'), ...file.split('/')].map(encodeURIComponent).join('/');
  const at = {
    github: `${repo}/edit/${path}`,
    gitlab: `${repo}/-/edit/${path}`,
    gitea: `${repo}/_edit/${path}`,
    bitbucket: `${repo}/src/${path}?mode=edit`,
  }[kind];
  return { url: at, label: `Edit on ${LABELS[kind]}` };
}

/** QUIRE_GIT_HOSTS (`host=kind,…`) read; throws a message naming what is wrong. */
export function parseGitHosts(raw: string | undefined): Map<string, GitHostKind> {
  const hosts = new Map<string, GitHostKind>();
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9.-]+(?::\d+)?)=([a-z]+)$/i.exec(entry);
    const kind = m?.[2].toLowerCase() as GitHostKind | undefined;
    if (!m || !kind || !GIT_HOST_KINDS.includes(kind))
      throw new Error(`QUIRE_GIT_HOSTS: "${entry}" is not host=kind with a kind among ${GIT_HOST_KINDS.join(', ')}`);
    hosts.set(m[1].toLowerCase().replace(/:\d+$/, ''), kind);
  }
  return hosts;
}
