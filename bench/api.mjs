// Shared by the bench scripts: start the built API on a bench database and wait until it is ready.
import { spawn } from 'node:child_process';

const { freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');

/** Starts an API process (extra environment on top of the bench defaults); returns its URL and process. */
export async function startApi({ databaseUrl, dataDir, token, extra = {}, nodeArgs = [] }) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, 'dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      QUIRE_JOBS: 'off',
      QUIRE_RATE_LIMIT_PER_MINUTE: '0',
      QUIRE_BOOTSTRAP_TOKEN: token,
      QUIRE_DATA_DIR: dataDir,
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child };
}

/**
 * A starter bound to one bench database: each process it starts is added to `children` (stopped at the
 * end). `nodeArgs` go to node itself (e.g. `--cpu-prof --cpu-prof-dir=…` to profile the API).
 */
export function apiStarter({ databaseUrl, dataDir, token, children }) {
  return async (extra = {}, nodeArgs = []) => {
    const api = await startApi({ databaseUrl, dataDir, token, extra, nodeArgs });
    children.push(api.child);
    return api;
  };
}
