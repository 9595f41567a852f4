import { ApertiumTranslator } from '../infrastructure/apertium-translator';
import { PairUnavailableError } from '../domain/translator';

/** The real Apertium (Debian apertium + apertium-eng-spa, installed by .ci/run). */
describe('the Apertium translator', () => {
  const translator = new ApertiumTranslator();

  it('lists the installed pairs in the official language codes', async () => {
    expect(await translator.pairs()).toEqual(
      expect.arrayContaining([
        { source: 'en', target: 'es' },
        { source: 'es', target: 'en' },
      ]),
    );
  });

  it('translates text and leaves markup, code and link targets untouched, fragment by fragment', async () => {
    const fragments = [
      'Getting started',
      'Run <code>npm install --save quire</code> to install the <a href="https://example.com/docs?x=1">package</a>.',
      'The <strong>search</strong> is broken.',
      '<code>const x = 1;</code>',
    ];
    const out = await translator.translate(fragments, { source: 'en', target: 'es' });
    expect(out).toHaveLength(4);
    expect(out[0]).toBe('Empezando');
    expect(out[1]).toContain('<code>npm install --save quire</code>');
    expect(out[1]).toContain('<a href="https://example.com/docs?x=1">');
    expect(out[1]).toMatch(/instalar/);
    expect(out[2]).toBe('La <strong>búsqueda</strong> está rota.');
    expect(out[3]).toBe('<code>const x = 1;</code>');
  });

  it('names the Debian package to install when the pair is missing', async () => {
    await expect(translator.translate(['Hello'], { source: 'en', target: 'ja' })).rejects.toThrow(PairUnavailableError);
    await expect(translator.translate(['Hello'], { source: 'en', target: 'fr' })).rejects.toThrow(
      /Debian package of the pair \(apertium-eng-fra.*apt-cache search apertium-/,
    );
  });
});
