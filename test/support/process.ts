import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NODE_FLAGS } from '../../apps/api/src/runtime-flags';

const DIST = join(process.cwd(), 'dist', 'apps', 'api', 'src');

/** The built server and CLI (what the container runs): `npm test` builds them before jest. */
function built(file: string): string {
  const path = join(DIST, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` before this test`);
  return path;
}

export interface ApiProcess {
  url: string;
  port: number;
  /** Everything the process wrote to stdout so far, one log line per entry. */
  lines: string[];
  /** stdout and stderr so far. */
  output(): string;
  /** Sends a signal (SIGKILL: a crash) and waits for the exit code. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  /** SIGTERM, then waits for the exit code (the graceful drain). */
  stop(): Promise<number | null>;
}

/**
 * Starts `node dist/apps/api/src/main.js` (what the container runs) with PORT=0 on loopback and waits
 * for its "listening" log line, which names the bound port. A process that does not get there is killed.
 */
export async function startApiProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ApiProcess> {
  const child: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, built('main.js')], {
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let all = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d: Buffer) => (all += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let pending = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening" line within ${timeoutMs} ms (it is logged at LOG_LEVEL=info):\n${all}`));
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      all += d.toString();
      pending += d.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = /Quire API listening on http:\/\/localhost:(\d+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the API process exited (${code}) before listening:\n${all}`));
    });
  });
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return { url: `http://127.0.0.1:${port}`, port, lines, output: () => all, kill, stop: () => kill('SIGTERM') };
}

/** Runs the built CLI (`npm run cli -- …`) and returns its stdout's JSON line. */
export async function runCli<T = Record<string, unknown>>(args: string[], env: Record<string, string>): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [built('cli.js'), ...args], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}
