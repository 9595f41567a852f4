import { LAYOUT_PRESETS, layoutOf, markdownToDocument } from '../markdown';

describe('page layouts from GitBook front matter', () => {
  it('reads the official presets as the options they stand for; docs is the default page', () => {
    expect(layoutOf('docs')).toBeNull();
    expect(layoutOf('editorial')).toEqual({ tableOfContents: false, outline: false, pagination: false });
    expect(layoutOf('landing')).toEqual({ width: 'wide', coverSize: 'full', outline: false, pagination: false, metadata: false });
    // A copy each time: a page's layout never shares (and changes) the preset.
    const a = layoutOf('landing')!;
    a.width = 'default';
    expect(LAYOUT_PRESETS.landing.width).toBe('wide');
  });

  it('reads the options form and the older one-word form; anything else is no layout', () => {
    expect(layoutOf({ width: 'wide', title: { visible: false }, cover: { visible: true, size: 'hero' } })).toEqual({
      width: 'wide',
      title: false,
      cover: true,
      coverSize: 'hero',
    });
    expect(layoutOf('wide')).toEqual({ width: 'wide' });
    for (const odd of ['Landing', 'toString', '__proto__', null, 3, [], { width: 'huge' }]) expect(layoutOf(odd)).toBeNull();
  });

  it('a page whose front matter names the landing preset gets its layout', () => {
    const read = markdownToDocument('---\nlayout: landing\n---\n\n# Home\n\nWelcome.\n');
    expect(read.meta.layout).toEqual(LAYOUT_PRESETS.landing);
  });
});
