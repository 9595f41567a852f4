import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A smart-HTTP Git server on loopback: Debian's `git http-backend` (CGI) behind a small bridge, with push
 * enabled and HTTP Basic authentication (one user and password for every repository). Repositories are bare
 * ones under a temporary folder; `seed` makes one from a folder (one commit), `git` runs git in a checkout.
 */
export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>.git`, without credentials. */
  url(name: string): string;
  /** The same with the user and password in it. */
  authUrl(name: string, password?: string): string;
  /** A new bare repository holding `dir`'s files as one commit on `main` (authored by `author`). */
  seed(name: string, dir: string | null, message?: string): string;
  /** Runs git in a fresh clone of the repository: `fn(dir)`, then pushes what it committed. */
  commit(name: string, fn: (dir: string) => void, message: string): string;
  /** `git` in the bare repository (log, show …). */
  bare(name: string, ...args: string[]): string;
  close(): Promise<void>;
}

export const GIT_USER = 'quire-bot';
export const GIT_PASSWORD = 's3cret-pass';
const BACKEND = '/usr/lib/git-core/git-http-backend';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Remote Dev', '-c', 'user.email=dev@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

export async function startGitServer(): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'quire-git-'));
  const expected = 'Basic ' + Buffer.from(`${GIT_USER}:${GIT_PASSWORD}`).toString('base64');
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end('authentication required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn(BACKEND, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: GIT_USER,
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
      },
    });
    req.pipe(cgi.stdin);
    // The CGI answer: header lines, a blank line, the body.
    let head = Buffer.alloc(0);
    let headerDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headerDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
    cgi.stderr.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = (name: string) => `http://127.0.0.1:${port}/${name}.git`;
  const bare = (name: string, ...args: string[]) => git(join(root, `${name}.git`), ...args);
  return {
    url,
    authUrl: (name, password = GIT_PASSWORD) => `http://${GIT_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${name}.git`,
    seed(name, dir, message = 'Initial import') {
      const bareDir = join(root, `${name}.git`);
      git(root, 'init', '--bare', '--quiet', bareDir);
      if (dir === null) return '';
      const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
      try {
        cpSync(dir, work, { recursive: true });
        git(work, 'init', '--quiet');
        git(work, 'add', '-A');
        git(work, 'commit', '--quiet', '-m', message);
        git(work, 'push', '--quiet', bareDir, 'HEAD:refs/heads/main');
        return git(work, 'rev-parse', 'HEAD');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    commit(name, fn, message) {
      const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
      try {
        git(root, 'clone', '--quiet', join(root, `${name}.git`), work);
        fn(work);
        git(work, 'add', '-A');
        git(work, 'commit', '--quiet', '-m', message);
        git(work, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
        return git(work, 'rev-parse', 'HEAD');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    bare,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
