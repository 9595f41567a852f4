import { InvalidInputError, type Page, type PageRequest, PreconditionError } from '@app/shared-kernel';

/**
 * Custom fonts (#52, the official `custom-fonts` operations): a font family an organization uploads, one file per
 * weight (the storage's `customization_font` files, woff2 or woff). A site's customization names the font by its
 * definition (official `CustomizationFontDefinitionInput`), and the published site's stylesheet declares its
 * faces (`@font-face`). docs/published-sites.md, "Custom fonts".
 */
export interface FontFaceFile {
  /** 1 to 1000 (400 regular, 700 bold). */
  weight: number;
  /** The storage key of an uploaded `customization_font` file of the same organization. */
  storageKey: string;
}

export interface CustomFont {
  id: string;
  organizationId: string;
  fontFamily: string;
  /** By weight, one file each; weight 400 always among them. */
  faces: FontFaceFile[];
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Official `FontFamily`: the CSS name, 1 to 50 characters. */
export const FONT_FAMILY_MAX = 50;
/** Faces of one font (one per weight); the nine CSS named weights twice over is plenty. */
export const FONT_FACES_MAX = 18;
/** Fonts one organization keeps. */
export const FONTS_PER_ORGANIZATION_MAX = 100;
export const REGULAR_WEIGHT = 400;

/**
 * A family name the stylesheet can quote as it is: letters, digits, spaces and `-_.'`, starting and ending with a
 * letter or a digit. Quotes, backslashes, semicolons and braces never reach CSS.
 */
const FAMILY_PATTERN = /^[\p{L}\p{N}](?:[\p{L}\p{N} _.'-]*[\p{L}\p{N}])?$/u;

export function checkFontFamily(name: string): string {
  const family = name.trim().replace(/ +/g, ' ');
  if (family.length < 1 || family.length > FONT_FAMILY_MAX || !FAMILY_PATTERN.test(family))
    throw new InvalidInputError(
      `fontFamily must be 1 to ${FONT_FAMILY_MAX} letters, digits, spaces and - _ . ', starting and ending with a letter or a digit`,
    );
  return family;
}

function checkWeight(weight: number, where: string): void {
  if (!Number.isInteger(weight) || weight < 1 || weight > 1000)
    throw new InvalidInputError(`${where}.weight must be a whole number from 1 to 1000`);
}

function byWeight(faces: FontFaceFile[]): FontFaceFile[] {
  return [...faces].sort((a, b) => a.weight - b.weight);
}

function checkFaces(faces: FontFaceFile[]): FontFaceFile[] {
  if (faces.length > FONT_FACES_MAX) throw new InvalidInputError(`A font has at most ${FONT_FACES_MAX} faces`);
  if (!faces.some((f) => f.weight === REGULAR_WEIGHT))
    throw new PreconditionError(`A font needs a face of weight ${REGULAR_WEIGHT} (regular)`);
  return byWeight(faces);
}

function noRepeatedWeight(faces: { weight: number }[]): void {
  const seen = new Set<number>();
  faces.forEach((f, i) => {
    checkWeight(f.weight, `fontFaces[${i}]`);
    if (seen.has(f.weight)) throw new InvalidInputError(`fontFaces[${i}].weight ${f.weight} is given twice`);
    seen.add(f.weight);
  });
}

/** The faces of a new font: one per weight, weight 400 among them (else 412, as the official document says). */
export function newFontFaces(faces: FontFaceFile[]): FontFaceFile[] {
  if (faces.length === 0) throw new InvalidInputError('fontFaces must have at least one face');
  noRepeatedWeight(faces);
  return checkFaces(faces);
}

/**
 * The faces after an update (official `updateCustomFont`): a weight given with a key is set, with `null` it is
 * removed; the other weights stay. Weight 400 must remain (412).
 */
export function updatedFontFaces(current: FontFaceFile[], patch: { weight: number; storageKey: string | null }[]): FontFaceFile[] {
  noRepeatedWeight(patch);
  const faces = new Map(current.map((f) => [f.weight, f.storageKey]));
  for (const p of patch) {
    if (p.storageKey === null) faces.delete(p.weight);
    else faces.set(p.weight, p.storageKey);
  }
  return checkFaces([...faces].map(([weight, storageKey]) => ({ weight, storageKey })));
}

/** The official `FontSource.format` of a font file, by the type it was uploaded with. */
export function fontFormatOf(contentType: string): 'woff2' | 'woff' {
  return contentType === 'font/woff' ? 'woff' : 'woff2';
}

export abstract class CustomFontRepository {
  /** Adds a font, unless the organization already keeps `max` (false). */
  abstract insert(font: CustomFont, max: number): Promise<boolean>;
  /** A font of the organization; `forUpdate` locks its row until the transaction ends. */
  abstract get(organizationId: string, id: string, forUpdate?: boolean): Promise<CustomFont | null>;
  /** The organization's fonts, oldest first. */
  abstract list(organizationId: string, page: PageRequest): Promise<Page<CustomFont>>;
  abstract update(font: CustomFont): Promise<void>;
  /** False when there was no such font. */
  abstract delete(organizationId: string, id: string): Promise<boolean>;
}
