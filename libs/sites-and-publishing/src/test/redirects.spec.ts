import { checkExternalUrl, checkSource, matchRedirect, redirectTarget, type SiteRedirect } from '../domain/redirects';
import type { Structure } from '../domain/site';

const redirect = (source: string, destination: SiteRedirect['destination'], extra: Partial<SiteRedirect> = {}): SiteRedirect => ({
  id: source,
  organizationId: 'o',
  siteId: 's',
  source,
  draft: false,
  captureWildcard: false,
  permanent: false,
  destination,
  createdAt: new Date(0),
  updatedAt: null,
  ...extra,
});
const ext = (url: string) => ({ kind: 'external' as const, url });

describe('site redirects: sources, matching and targets', () => {
  it('accepts the official source paths and refuses the rest', () => {
    for (const ok of ['/a', '/a/b-c_d.e~f+g', '/a/*', '/a*', '/%20x']) expect(checkSource(ok)).toBe(ok);
    for (const bad of ['a', '/', '/*', '/a*b', '/a/*/b', '/a//b', '/a b', '/a\u0000', '/%zz', `/${'a'.repeat(512)}`])
      expect(() => checkSource(bad)).toThrow(/source must be/);
  });

  it('accepts http(s) URLs only', () => {
    expect(checkExternalUrl('https://example.com/x')).toBe('https://example.com/x');
    for (const bad of ['javascript:alert(1)', 'ftp://x/', 'not a url', `https://x.com/${'a'.repeat(2048)}`])
      expect(() => checkExternalUrl(bad)).toThrow();
  });

  it('matches an exact source first, then the longest wildcard prefix, with what the star matched', () => {
    const all = [
      redirect('/docs/*', ext('https://a')),
      redirect('/docs/api/*', ext('https://b')),
      redirect('/docs/api/v1', ext('https://c')),
      redirect('/old*', ext('https://d')),
    ];
    expect(matchRedirect(all, '/docs/api/v1')?.redirect.source).toBe('/docs/api/v1');
    expect(matchRedirect(all, '/docs/api/v2/x')).toMatchObject({ redirect: { source: '/docs/api/*' }, rest: 'v2/x' });
    expect(matchRedirect(all, '/docs/guide')).toMatchObject({ redirect: { source: '/docs/*' }, rest: 'guide' });
    expect(matchRedirect(all, '/older/page')).toMatchObject({ redirect: { source: '/old*' }, rest: 'er/page' });
    expect(matchRedirect(all, '/doc')).toBeNull();
  });

  it('builds targets for sections, site spaces, pages and URLs; a destination that is gone has none', () => {
    const structure: Structure = {
      siteSpaces: [],
      items: [
        {
          kind: 'section',
          id: 'sec1',
          title: 'A',
          path: 'a',
          default: true,
          siteSpaces: [{ id: 'ss1', spaceId: 'sp1', path: 'v1', default: true }],
        },
        {
          kind: 'section',
          id: 'sec2',
          title: 'B',
          path: 'b',
          default: false,
          siteSpaces: [{ id: 'ss2', spaceId: 'sp2', path: 'v2', default: false }],
        },
      ],
    };
    const root = 'https://docs.example/';
    const page = (siteSpaceId: string, pageId: string) => (pageId === 'p1' ? 'guide/setup' : null);
    const target = (r: SiteRedirect, rest = '') => redirectTarget(r, rest, root, structure, page);
    expect(target(redirect('/x', { kind: 'site-section', siteSectionId: 'sec2' }))).toBe('https://docs.example/b/');
    expect(target(redirect('/x', { kind: 'site-section', siteSectionId: 'sec1' }))).toBe('https://docs.example/');
    expect(target(redirect('/x', { kind: 'site-space', siteSpaceId: 'ss2' }))).toBe('https://docs.example/b/v2/');
    expect(target(redirect('/x', { kind: 'site-page', siteSpaceId: 'ss2', pageId: 'p1' }))).toBe('https://docs.example/b/v2/guide/setup');
    expect(target(redirect('/x', { kind: 'site-page', siteSpaceId: 'ss2', pageId: 'gone' }))).toBeNull();
    expect(target(redirect('/x', { kind: 'site-space', siteSpaceId: 'gone' }))).toBeNull();
    expect(target(redirect('/x/*', ext('https://e.com/api'), { captureWildcard: true }), 'v1/users')).toBe('https://e.com/api/v1/users');
    expect(target(redirect('/x/*', { kind: 'site-space', siteSpaceId: 'ss2' }, { captureWildcard: true }), 'a/b')).toBe(
      'https://docs.example/b/v2/a/b',
    );
    expect(target(redirect('/x/*', ext('https://e.com/api')), 'ignored')).toBe('https://e.com/api');
  });
});
