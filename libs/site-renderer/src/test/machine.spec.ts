import { renderLlmsFullTxt, renderLlmsTxt, renderRobotsTxt, renderSitemap } from '../machine';

const at = new Date('2026-03-01T10:00:00.000Z');

describe('files for crawlers and agents', () => {
  it('sitemap.xml escapes URLs by construction', () => {
    expect(renderSitemap([{ title: 'A', url: 'https://docs.example/a?x=1&y=<2>', lastModified: at }])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://docs.example/a?x=1&amp;y=&lt;2></loc><lastmod>2026-03-01T10:00:00.000Z</lastmod></url></urlset>\n',
    );
  });

  it('llms.txt lists each group’s pages as links to their markdown; titles cannot break the list', () => {
    const out = renderLlmsTxt('Docs\nsite', [
      {
        title: 'Guides › v2',
        pages: [{ title: 'Set [up]', description: 'How to\nstart', url: 'https://d.example/setup', lastModified: at }],
      },
      { title: 'Empty', pages: [] },
    ]);
    expect(out).toBe('# Docs site\n\n## Guides › v2\n\n- [Set \\[up\\]](https://d.example/setup.md): How to start\n');
  });

  it('llms-full.txt holds every page’s markdown under its title and source', () => {
    expect(renderLlmsFullTxt('Docs', [{ page: { title: 'A', url: 'https://d.example/a', lastModified: at }, markdown: 'Body.\n\n' }])).toBe(
      '# Docs\n\n---\n\n# A\n\nSource: https://d.example/a\n\nBody.\n',
    );
  });

  it('robots.txt invites crawlers to a public site only', () => {
    expect(renderRobotsTxt(true, 'https://d.example/sitemap.xml')).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://d.example/sitemap.xml\n',
    );
    expect(renderRobotsTxt(false, 'https://d.example/sitemap.xml')).toBe('User-agent: *\nDisallow: /\n');
  });
});
