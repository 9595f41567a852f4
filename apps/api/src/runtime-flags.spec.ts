import { readFileSync } from 'node:fs';
import { NODE_FLAGS } from './runtime-flags';

/** Every way the API is started passes the same V8 flags. */
describe('runtime flags', () => {
  it('npm start passes them', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe(['node', ...NODE_FLAGS, 'dist/apps/api/src/main.js'].join(' '));
  });

  it('the container image passes them', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('docker/Dockerfile', 'utf8'));
    expect(JSON.parse(cmd?.[1] ?? '[]')).toEqual(['node', ...NODE_FLAGS, 'dist/apps/api/src/main.js']);
  });
});
