import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { readGitbookRepository } from '@app/content-model';
import { repositoryArchive, repositoryFolder } from '..';

describe('a repository given as a zip archive', () => {
  const corpus = join(process.cwd(), 'test/fixtures/corpora/fluentd-docs-gitbook');

  it('reads as the folder it was made from (GitHub’s one top folder removed): the same tree, pages and assets', () => {
    const folder = repositoryFolder(corpus);
    const entries: Record<string, Uint8Array> = {};
    for (const p of folder.paths()) entries[`fluentd-docs-main/${p}`] = new Uint8Array(folder.bytes(p)!);
    const archive = repositoryArchive(Buffer.from(zipSync(entries)));
    expect([...archive.paths()].sort()).toEqual([...folder.paths()].sort());
    const a = readGitbookRepository(archive);
    const b = readGitbookRepository(folder);
    expect(JSON.stringify(a.pages)).toBe(JSON.stringify(b.pages));
    expect(a.assets.length).toBe(b.assets.length);
    const logo = '.gitbook/assets/logo_documentation_1.0.png';
    expect(archive.bytes(logo)!.equals(readFileSync(join(corpus, logo)))).toBe(true);
  });

  it('leaves out entries that would leave the archive and .git/; refuses what is not a zip', () => {
    const archive = repositoryArchive(
      Buffer.from(
        zipSync({
          'README.md': strToU8('# Home\n'),
          '../outside.md': strToU8('# Out\n'),
          '/abs.md': strToU8('# Abs\n'),
          'a/../../up.md': strToU8('# Up\n'),
          '.git/config': strToU8('[core]\n'),
          'guide/setup.md': strToU8('# Setup\n'),
        }),
      ),
    );
    expect([...archive.paths()].sort()).toEqual(['README.md', 'guide/setup.md']);
    expect(() => repositoryArchive(Buffer.from('not a zip at all'))).toThrow(/not a readable zip archive/);
  });
});
