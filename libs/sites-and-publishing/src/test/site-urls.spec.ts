import { pathInSite, previewUrl, publishedRoot, sectionPrefix, servedBase, siteRoot, siteSpacePrefix } from '../domain/site-urls';

/** The URL rules of published sites, each once: where Quire serves a site, where it says it lives, and the paths below its root. */
describe('site URLs', () => {
  const site = { id: 's1', hostname: null, basename: null, proxy: null };

  it('serves a site below Quire’s origin, or as the whole origin of its custom hostname', () => {
    expect(servedBase('s1', 'https://quire.example')).toBe('https://quire.example/sites/s1/');
    expect(servedBase('s1', 'https://quire.example', 'docs.acme.com')).toBe('https://docs.acme.com/');
    expect(siteRoot('https://docs.acme.com/', null)).toBe('https://docs.acme.com/');
    expect(siteRoot('https://docs.acme.com/', 'handbook')).toBe('https://docs.acme.com/handbook/');
    expect(previewUrl('s1', 'https://quire.example', 't.k')).toBe('https://quire.example/sites/s1/~preview/t.k/');
  });

  it('says a site lives behind its proxy, else at its hostname, else at Quire’s URL, with its basename', () => {
    expect(publishedRoot(site, 'https://q.example')).toBe('https://q.example/sites/s1/');
    expect(publishedRoot({ ...site, basename: 'docs' }, 'https://q.example')).toBe('https://q.example/sites/s1/docs/');
    expect(publishedRoot({ ...site, hostname: 'docs.acme.com', basename: 'v2' }, 'https://q.example')).toBe('https://docs.acme.com/v2/');
    // A proxy's path is its own: the basename is not added.
    expect(publishedRoot({ ...site, hostname: 'docs.acme.com', basename: 'v2', proxy: 'acme.com/docs' }, 'https://q.example')).toBe(
      'https://acme.com/docs/',
    );
  });

  it('places sections and site spaces below the root, the defaults at it', () => {
    const dflt = { default: true, path: 'ignored' };
    expect(sectionPrefix(null)).toBe('');
    expect(sectionPrefix(dflt)).toBe('');
    expect(sectionPrefix({ default: false, path: 'guides' })).toBe('guides/');
    expect(siteSpacePrefix(null, dflt)).toBe('');
    expect(siteSpacePrefix(null, { default: false, path: 'v2' })).toBe('v2/');
    expect(siteSpacePrefix({ default: false, path: 'api' }, { default: false, path: 'v2' })).toBe('api/v2/');
    expect(siteSpacePrefix({ default: false, path: 'api' }, dflt)).toBe('api/');
    expect(siteSpacePrefix(dflt, { default: false, path: 'v 2' })).toBe('v%202/');
  });

  it('reads the path below the site’s root back from any of its URLs, and nothing from another site’s', () => {
    const full = { id: 's1', hostname: 'docs.acme.com', basename: 'help', proxy: 'acme.com/docs' };
    const origin = 'https://quire.example';
    expect(pathInSite('https://quire.example/sites/s1/help/guide/setup?x=1#a', full, origin)).toBe('guide/setup');
    expect(pathInSite('https://quire.example/sites/s1/help', full, origin)).toBe('');
    expect(pathInSite('http://docs.acme.com/help/v%202/', full, origin)).toBe('v%202/');
    expect(pathInSite('https://acme.com/docs/guide', full, origin)).toBe('guide');
    expect(pathInSite('https://quire.example/sites/s1/guide', full, origin)).toBeNull();
    expect(pathInSite('http://quire.example/sites/s1/help/guide', full, origin)).toBeNull();
    expect(pathInSite('https://quire.example/sites/s2/help/guide', full, origin)).toBeNull();
    expect(pathInSite('https://docs.acme.com/helpdesk', full, origin)).toBeNull();
    expect(pathInSite('ftp://docs.acme.com/help/', full, origin)).toBeNull();
    expect(pathInSite('not a url', full, origin)).toBeNull();
    expect(pathInSite('https://quire.example/sites/s1/', site, origin)).toBe('');
  });
});
