import { leafTexts, nodeTypes, officialDocuments, wrongTypedDocuments } from '../../../../test/support/official-documents';
import { blockChanges } from '..';
import { extractLinks } from '..';
import { checkDocumentInput, documentToMarkdown } from '..';
import { sections } from '..';
import { prepareDocument } from '..';

/**
 * Property: every document the official JSONDocument schema accepts is accepted by every reader of a
 * document Quire has (input check, markdown, search sections, links, translation, block changes), and
 * none of its block types is dropped: each is kept as given.
 */
describe('documents the official schema accepts', () => {
  const generated = officialDocuments(400);

  it('covers the official block types (the generator reaches them)', () => {
    const types = new Set(generated.flatMap((g) => nodeTypes(g.document)));
    for (const t of [
      'paragraph',
      'heading-1',
      'code',
      'hint',
      'tabs',
      'table',
      'expandable',
      'stepper',
      'openapi-operation',
      'file',
      'embed',
      'math',
    ])
      expect([t, types.has(t)]).toEqual([t, true]);
  });

  it.each(generated.map((g) => [g.seed, g.document] as const))('seed %i: accepted, kept, and read everywhere', (_seed, document) => {
    const { document: kept, markdown } = checkDocumentInput(document, 'document', 1_000_000);
    expect(typeof markdown).toBe('string');
    // Kept as given: every node and every text.
    expect(nodeTypes(kept)).toEqual(nodeTypes(document));
    expect(leafTexts(kept)).toEqual(leafTexts(document));
    const doc = kept;
    expect(() => documentToMarkdown(doc)).not.toThrow();
    expect(() => sections('Page', doc)).not.toThrow();
    expect(() => extractLinks(doc)).not.toThrow();
    expect(() => prepareDocument(doc)).not.toThrow();
    expect(() => blockChanges(null, doc)).not.toThrow();
  });

  it('refuses, naming the field, every wrong-typed variant the official schema refuses (data, meta, leaves, marks: a string, an array, null), never filling it in', () => {
    const variants = generated.flatMap(({ seed, document }) => wrongTypedDocuments(document, seed).map((w) => ({ seed, ...w })));
    expect(variants.length).toBeGreaterThan(400);
    const failures = variants.flatMap(({ seed, where, document }) => {
      try {
        checkDocumentInput(document, 'input', 1_000_000);
        return [`seed ${seed} ${where}: accepted`];
      } catch (e) {
        return (e as Error).message.startsWith(`input.${where} must be`) ? [] : [`seed ${seed} ${where}: ${(e as Error).message}`];
      }
    });
    expect(failures).toEqual([]);
  });
});
