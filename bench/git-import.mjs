// Importing GitBook repositories (issue #32, part of npm run bench): `quire import` (the built CLI, its start
// included, as a person runs it) of the real Fluentd repository (194 pages, 192 assets; target < 10 s) and of a
// generated one of 4,000 pages (40 folders of 100 pages, each with a hint, a code block and links to its
// neighbours; target < 60 s), then `quire export` of the large space, and imports of it again (unchanged, then
// with one page edited: what a Git Sync pull does). Wall times.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiStarter } from './api.mjs';

const { startEmbeddedPostgres } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const FOLDERS = 40;
const PER_FOLDER = 100;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-git-'));
const work = mkdtempSync(join(tmpdir(), 'quire-bench-repo-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });
const cli = (...args) => {
  const t0 = process.hrtime.bigint();
  const out = execFileSync(process.execPath, ['dist/apps/api/src/cli.js', ...args], {
    env: { ...process.env, DATABASE_URL: db.url, QUIRE_DATA_DIR: join(work, 'cli-data'), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return { result: JSON.parse(out.toString().trim().split('\n').pop()), s: Number(process.hrtime.bigint() - t0) / 1e9 };
};

/** A repository of FOLDERS × PER_FOLDER pages, written into `dir`. */
function generate(dir) {
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  writeFileSync(join(dir, 'README.md'), '# Home\n\nThe generated handbook.\n');
  for (let f = 0; f < FOLDERS; f++) {
    const folder = `part-${f}`;
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'README.md'), `# Part ${f}\n\nPages of part ${f}.\n`);
    summary.push(`* [Part ${f}](${folder}/README.md)`);
    for (let p = 0; p < PER_FOLDER; p++) {
      const next = `page-${(p + 1) % PER_FOLDER}.md`;
      writeFileSync(
        join(dir, folder, `page-${p}.md`),
        [
          `# Page ${f}.${p}`,
          '',
          `This page explains topic ${f}.${p}. See [the next page](${next}) or [the first part](../part-0/README.md#pages).`,
          '',
          '{% hint style="info" %}',
          `Remember step ${p}: **configure** before you \`run\`.`,
          '{% endhint %}',
          '',
          '```bash',
          `quire run --part ${f} --page ${p}`,
          '```',
          '',
          '- one',
          '- two',
          '',
        ].join('\n'),
      );
      summary.push(`  * [Page ${f}.${p}](${folder}/page-${p}.md)`);
    }
  }
  writeFileSync(join(dir, 'SUMMARY.md'), summary.join('\n') + '\n');
}

try {
  const { url: base } = await startApi();
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const send = () => fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    // A kept-alive connection the server closed while the CLI ran (its keep-alive is 5 s) fails once: sent again.
    const res = await send().catch((e) => (e.cause?.code === 'UND_ERR_SOCKET' ? send() : Promise.reject(e)));
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const user = (await call('GET', '/v1/user')).id;
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const space = async (title) => (await call('POST', `/v1/orgs/${org}/spaces`, { title })).id;

  const fluentd = cli('import', '--space', await space('Fluentd'), '--user', user, '--dir', 'test/fixtures/corpora/fluentd-docs-gitbook');
  const generated = join(work, 'generated');
  mkdirSync(generated);
  generate(generated);
  const largeSpace = await space('Generated');
  const large = cli('import', '--space', largeSpace, '--user', user, '--dir', generated);
  await call('POST', `/v1/spaces/${largeSpace}/change-requests/${large.result.changeRequest}/merge`);
  const exported = cli('export', '--space', largeSpace, '--user', user, '--dir', join(work, 'exported'));
  // Imported again (what a Git Sync pull does): unchanged, then with one page edited.
  const again = cli('import', '--space', largeSpace, '--user', user, '--dir', generated);
  if (again.result.changeRequest !== null) throw new Error('an unchanged repository imported again made a change request');
  writeFileSync(join(generated, 'part-7', 'page-42.md'), '# Page 7.42\n\nEdited in Git.\n');
  const edited = cli('import', '--space', largeSpace, '--user', user, '--dir', generated);
  console.table([
    { measure: 'import the Fluentd repository (CLI)', pages: fluentd.result.pages, value: `${fluentd.s.toFixed(1)} s`, target: '< 10 s' },
    {
      measure: `import ${FOLDERS * PER_FOLDER} generated pages (CLI)`,
      pages: large.result.pages,
      value: `${large.s.toFixed(1)} s`,
      target: '< 60 s',
    },
    { measure: 'export that space (CLI)', pages: exported.result.files, value: `${exported.s.toFixed(1)} s`, target: '' },
    { measure: 'import it again, unchanged: nothing to do (CLI)', pages: 0, value: `${again.s.toFixed(1)} s`, target: '' },
    { measure: 'import it again, one page edited (CLI)', pages: edited.result.pages, value: `${edited.s.toFixed(1)} s`, target: '' },
  ]);
  console.log('Wall times of the built CLI, its start and migrations check included (about 2 s).');
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
