import { GlossaryTermLostError, protectTerms } from '../domain/glossary-terms';
import { checkTranslations, checkUniqueTerms, termsFingerprint, termsFor, type GlossaryEntry } from '../domain/glossary';

const terms = [
  { source: 'pull request', target: 'demande de tirage' },
  { source: 'pull request template', target: 'modèle de demande de tirage' },
  { source: 'merge', target: 'fusion' },
  { source: 'R&D', target: 'R et D' },
];

describe('glossary terms through a translator', () => {
  it('protects whole terms, longest first, case aside, never inside inline code, and restores the target terms', () => {
    const sent = protectTerms(
      [
        'Open a Pull Request with the pull request template, then <b>merge</b> it.',
        'A merged branch and <code data-q="0">git merge</code> stay as they are; R&amp;D does not.',
        'Nothing here.',
      ],
      terms,
    );
    expect(sent.protectedTerms).toBe(4);
    expect(sent.fragments[0]).toBe(
      'Open a <code data-g="0">Pull Request</code> with the <code data-g="1">pull request template</code>, then <b><code data-g="2">merge</code></b> it.',
    );
    expect(sent.fragments[1]).toBe(
      'A merged branch and <code data-q="0">git merge</code> stay as they are; <code data-g="0">R&amp;D</code> does not.',
    );
    expect(sent.fragments[2]).toBe('Nothing here.');
    // A translator that moves words around and keeps the placeholders.
    const back = sent.restore([
      'Ouvrez une <code data-g="0">Pull Request</code> avec le <code data-g="1">pull request template</code>, puis <b><code data-g="2">merge</code></b>-la.',
      'Une branche et <code data-q="0">git merge</code> restent; <code data-g="0">R&amp;D</code> non.',
      'Rien ici.',
    ]);
    // Capitalized where the source was.
    expect(back[0]).toBe('Ouvrez une Demande de tirage avec le modèle de demande de tirage, puis <b>fusion</b>-la.');
    expect(back[1]).toBe('Une branche et <code data-q="0">git merge</code> restent; R et D non.');
    expect(back[2]).toBe('Rien ici.');
  });

  it('refuses a translation that lost, repeated or invented a placeholder', () => {
    const sent = protectTerms(['Please merge.'], terms);
    expect(() => sent.restore(['Fusionnez.'])).toThrow(GlossaryTermLostError);
    expect(() => sent.restore(['<code data-g="0">merge</code> <code data-g="0">merge</code>'])).toThrow(GlossaryTermLostError);
    expect(() => sent.restore(['<code data-g="0">merge</code> <code data-g="7">x</code>'])).toThrow(GlossaryTermLostError);
    expect(() => sent.restore(['<code data-g="0">merge'])).toThrow(GlossaryTermLostError);
  });

  it('never matches inside a character reference, and leaves a match its folding does not name', () => {
    const sent = protectTerms(
      ['R&amp;D and amp', 'Straße', 'Sſ'],
      [
        { source: 'amp', target: 'ampère' },
        { source: 'ss', target: 'x' },
      ],
    );
    expect(sent.fragments[0]).toBe('R&amp;D and <code data-g="0">amp</code>');
    expect(sent.fragments[1]).toBe('Straße');
    expect(sent.fragments[2]).toBe('Sſ');
    expect(sent.restore(sent.fragments)).toEqual(['R&amp;D and ampère', 'Straße', 'Sſ']);
  });

  it('escapes a target term holding markup characters', () => {
    const sent = protectTerms(['Use the API.'], [{ source: 'API', target: '<API> & co' }]);
    expect(sent.restore(sent.fragments)).toEqual(['Use the &lt;API&gt; &amp; co.']);
  });

  it('with no terms, sends the fragments as they are', () => {
    const sent = protectTerms(['Hello <b>world</b>'], []);
    expect(sent.fragments).toEqual(['Hello <b>world</b>']);
    expect(sent.restore(['Hola <b>mundo</b>'])).toEqual(['Hola <b>mundo</b>']);
  });
});

describe('glossary entries', () => {
  const entry = (id: string, translations: GlossaryEntry['translations']): GlossaryEntry => ({
    id,
    organizationId: 'o',
    translations,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });

  it('checks terms: official language codes, 1 to 255 characters, no line break or control character, not blank', () => {
    expect(checkTranslations({ en: 'merge', 'pt-br': 'mesclar' }, 'x')).toEqual({ en: 'merge', 'pt-br': 'mesclar' });
    expect(checkTranslations({ en: 'a'.repeat(255) }, 'x').en).toHaveLength(255);
    for (const bad of [
      null,
      [],
      'en',
      {},
      { xx: 'term' },
      { en: '' },
      { en: 'a'.repeat(256) },
      { en: 'two\nlines' },
      { en: 'nul\u0000' },
      { en: '   ' },
      { en: 5 },
      { en: null },
    ])
      expect(() => checkTranslations(bad, 'x')).toThrow();
  });

  it('a term of one language names one entry only, case and blanks aside', () => {
    expect(() => checkUniqueTerms([entry('a', { en: 'Merge' }), entry('b', { en: 'merge ' })])).toThrow(
      /already the term of glossary entry "a"/,
    );
    expect(() => checkUniqueTerms([entry('a', { en: 'merge', fr: 'fusion' }), entry('b', { fr: 'merge' })])).not.toThrow();
  });

  it('applies to a pair the entries giving both languages; the fingerprint changes with the terms only', () => {
    const entries = [entry('a', { en: 'merge', es: 'fusión' }), entry('b', { en: 'branch' }), entry('c', { es: 'rama', fr: 'branche' })];
    expect(termsFor(entries, { source: 'en', target: 'es' })).toEqual([{ source: 'merge', target: 'fusión' }]);
    const one = termsFingerprint(termsFor(entries, { source: 'en', target: 'es' }));
    expect(termsFingerprint(termsFor([...entries].reverse(), { source: 'en', target: 'es' }))).toBe(one);
    expect(termsFingerprint(termsFor([entry('a', { en: 'merge', es: 'fusionar' })], { source: 'en', target: 'es' }))).not.toBe(one);
    expect(termsFingerprint([])).toBe('');
  });
});
