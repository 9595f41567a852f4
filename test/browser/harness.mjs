// What the browser tests share: a built Quire on an embedded PostgreSQL in a fresh data dir (its
// first-start token and organization read from its output), Debian's headless Chromium through
// playwright-core, and named checks that report and count instead of stopping at the first failure.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const results = { passed: 0, failed: 0 };

export async function check(name, fn) {
  try {
    await fn();
    results.passed += 1;
    console.log(`  ✓ ${name}`);
  } catch (e) {
    results.failed += 1;
    console.log(`  ✕ ${name}\n    ${e instanceof Error ? e.message : e}`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server; resolves once it is ready, with its origin, first-start token and organization.
 * `env` adds to (or overrides) its environment: jobs are off unless a test turns them on.
 */
export async function startServer(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-browser-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      QUIRE_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      QUIRE_JOBS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${origin}/health/ready`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const token = /API token:\s+(\S+)/.exec(output)?.[1];
  const organization = /Organization:\s+(\S+)/.exec(output)?.[1];
  // The one-time sign-in link of the first start (its token: what follows `#`).
  const signInLink = /Sign in:\s+(\S+)/.exec(output)?.[1];
  return {
    origin,
    token,
    organization,
    signInToken: signInLink?.split('#')[1],
    /** The administration CLI against this server's database (`cli('user:create', '--email', …)`): its JSON output. */
    cli: (...args) =>
      new Promise((resolve, reject) =>
        execFile(
          process.execPath,
          ['dist/apps/api/src/cli.js', ...args],
          { env: { ...process.env, DATABASE_URL: '', QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
          (e, stdout, stderr) =>
            e ? reject(new Error(`cli ${args[0]}: ${stderr || e.message}`)) : resolve(JSON.parse(stdout.trim().split('\n').pop())),
        ),
      ),
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => (server.exitCode !== null ? r() : server.on('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The API of a started server, as its first-start admin: `api(method, path, body)` → the JSON answer (throws on an error). */
export function apiClient({ origin, token }) {
  return async (method, path, body) => {
    const res = await fetch(`${origin}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/**
 * axe-core in a page (evaluated by the driver: a site's CSP admits no injected script); throws on a serious or
 * critical violation, naming a few of its nodes.
 */
export async function axeCheck(page, axeSource) {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.failureSummary?.split('\n').pop() + ' at ' + n.target.join(' '))
            .join(' | ')})`,
      );
  });
  if (found.length) throw new Error(found.join('; '));
}
