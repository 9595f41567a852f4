import { editLink, gitHostKind, parseGitHosts } from '../domain/git-hosts';

describe('edit links on Git hosts', () => {
  const none = new Map();

  it('links to the edit page of each known host, the branch and path encoded', () => {
    expect(editLink('https://github.com/acme/docs.git', 'refs/heads/main', 'docs/guide/setup.md', none)).toEqual({
      url: 'https://github.com/acme/docs/edit/main/docs/guide/setup.md',
      label: 'Edit on GitHub',
    });
    expect(editLink('https://gitlab.com/acme/team/docs', 'refs/heads/release/2.x', 'a b.md', none)).toEqual({
      url: 'https://gitlab.com/acme/team/docs/-/edit/release/2.x/a%20b.md',
      label: 'Edit on GitLab',
    });
    expect(editLink('https://codeberg.org/acme/docs.git/', 'refs/heads/main', 'README.md', none)?.url).toBe(
      'https://codeberg.org/acme/docs/_edit/main/README.md',
    );
    expect(editLink('https://bitbucket.org/acme/docs.git', 'refs/heads/main', 'x#y.md', none)?.url).toBe(
      'https://bitbucket.org/acme/docs/src/main/x%23y.md?mode=edit',
    );
    // A self-hosted GitLab says so in its name.
    expect(gitHostKind('gitlab.example.com', none)).toBe('gitlab');
    expect(gitHostKind('mygithubmirror.example.com', none)).toBeNull();
  });

  it('a host of no known kind, a ref that is no branch, or a URL that is not http(s): no link', () => {
    expect(editLink('https://git.example.com/acme/docs.git', 'refs/heads/main', 'README.md', none)).toBeNull();
    expect(editLink('https://github.com/acme/docs.git', 'refs/tags/v1', 'README.md', none)).toBeNull();
    expect(editLink('ssh://git@github.com/acme/docs.git', 'refs/heads/main', 'README.md', none)).toBeNull();
    expect(editLink('not a url', 'refs/heads/main', 'README.md', none)).toBeNull();
  });

  it('QUIRE_GIT_HOSTS names the kind of other hosts; a wrong entry is refused with what is wrong', () => {
    const hosts = parseGitHosts(' git.example.com=gitea , code.example.org:8443=GitLab');
    expect([...hosts]).toEqual([
      ['git.example.com', 'gitea'],
      ['code.example.org', 'gitlab'],
    ]);
    expect(editLink('https://git.example.com/acme/docs.git', 'refs/heads/main', 'README.md', hosts)?.url).toBe(
      'https://git.example.com/acme/docs/_edit/main/README.md',
    );
    expect(parseGitHosts(undefined).size).toBe(0);
    expect(() => parseGitHosts('git.example.com=svn')).toThrow(/"git.example.com=svn" is not host=kind/);
    expect(() => parseGitHosts('=gitea')).toThrow(/QUIRE_GIT_HOSTS/);
  });
});
