import { InvalidInputError, PreconditionError } from '@app/shared-kernel';
import { checkFontFamily, newFontFaces, updatedFontFaces } from '../domain/custom-fonts';

describe('custom fonts: families and faces', () => {
  it('keeps a family of letters of any script, its spaces tidied; refuses what could leave a CSS string', () => {
    expect(checkFontFamily('  Noto   Sans JP ')).toBe('Noto Sans JP');
    expect(checkFontFamily("Éric's Serif-2_b.c")).toBe("Éric's Serif-2_b.c");
    expect(checkFontFamily('x'.repeat(50))).toHaveLength(50);
    for (const bad of ['', '   ', 'x'.repeat(51), 'A"B', 'A;B', 'A}B', 'A\\B', 'A\nB', 'A<B', '-Lead', "Trail'", 'A\u0000'])
      expect(() => checkFontFamily(bad)).toThrow(InvalidInputError);
  });

  it('a new font has one face per weight, weight 400 among them (a precondition: 412), in weight order', () => {
    expect(
      newFontFaces([
        { weight: 700, storageKey: 'b' },
        { weight: 400, storageKey: 'r' },
      ]),
    ).toEqual([
      { weight: 400, storageKey: 'r' },
      { weight: 700, storageKey: 'b' },
    ]);
    expect(() => newFontFaces([{ weight: 700, storageKey: 'b' }])).toThrow(PreconditionError);
    expect(() => newFontFaces([])).toThrow(InvalidInputError);
    for (const weight of [0, 1001, 1.5, Number.NaN])
      expect(() =>
        newFontFaces([
          { weight: 400, storageKey: 'r' },
          { weight, storageKey: 'x' },
        ]),
      ).toThrow(InvalidInputError);
    expect(() =>
      newFontFaces([
        { weight: 400, storageKey: 'r' },
        { weight: 400, storageKey: 'x' },
      ]),
    ).toThrow(/given twice/);
    expect(() => newFontFaces(Array.from({ length: 19 }, (_, i) => ({ weight: 400 + i, storageKey: 'k' })))).toThrow(/at most 18/);
  });

  it('an update sets the weights it gives, removes those given null, keeps the rest; 400 must remain', () => {
    const current = [
      { weight: 400, storageKey: 'r' },
      { weight: 700, storageKey: 'b' },
    ];
    expect(
      updatedFontFaces(current, [
        { weight: 700, storageKey: null },
        { weight: 300, storageKey: 'l' },
        { weight: 400, storageKey: 'r2' },
      ]),
    ).toEqual([
      { weight: 300, storageKey: 'l' },
      { weight: 400, storageKey: 'r2' },
    ]);
    expect(updatedFontFaces(current, [])).toEqual(current);
    // Removing a weight the font does not have changes nothing.
    expect(updatedFontFaces(current, [{ weight: 900, storageKey: null }])).toEqual(current);
    expect(() => updatedFontFaces(current, [{ weight: 400, storageKey: null }])).toThrow(PreconditionError);
    expect(() =>
      updatedFontFaces(current, [
        { weight: 500, storageKey: 'm' },
        { weight: 500, storageKey: null },
      ]),
    ).toThrow(/given twice/);
  });
});
