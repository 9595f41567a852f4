import { Injectable } from '@nestjs/common';
import { Access } from '@app/access';
import {
  Actor,
  Clock,
  ConflictError,
  IdGenerator,
  NotFoundError,
  Page,
  PageRequest,
  PreconditionError,
  Role,
  roleAtLeast,
} from '@app/shared-kernel';
import {
  checkFontFamily,
  CustomFont,
  CustomFontRepository,
  FontFaceFile,
  fontFormatOf,
  FONTS_PER_ORGANIZATION_MAX,
  newFontFaces,
  updatedFontFaces,
} from '../domain/custom-fonts';
import { StorageRepository } from '../domain/storage';
import { SITE_ROLES } from './sites.service';

/** A font as answered: each face's file with its format, and whether the caller may change it. */
export interface CustomFontView {
  font: CustomFont;
  faces: { weight: number; storageKey: string; format: 'woff2' | 'woff' }[];
  canEdit: boolean;
}

/**
 * Custom fonts (#52): every member reads the organization's fonts; those who may create sites (and upload their
 * files) add, change and delete them. Each face is a `customization_font` file the organization has uploaded.
 */
@Injectable()
export class CustomFontsService {
  constructor(
    private readonly fonts: CustomFontRepository,
    private readonly files: StorageRepository,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<CustomFontView>> {
    const role = await this.access.require(organizationId, actor, SITE_ROLES.read);
    const found = await this.fonts.list(organizationId, page);
    const views = await this.views(organizationId, found.items, role);
    return { ...found, items: views };
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<CustomFontView> {
    const role = await this.access.require(organizationId, actor, SITE_ROLES.read);
    const font = await this.fonts.get(organizationId, id);
    if (!font) throw new NotFoundError('Font', id);
    return (await this.views(organizationId, [font], role))[0];
  }

  async create(actor: Actor, organizationId: string, input: { fontFamily: string; fontFaces: FontFaceFile[] }): Promise<CustomFontView> {
    const role = await this.access.require(organizationId, actor, SITE_ROLES.create);
    const fontFamily = checkFontFamily(input.fontFamily);
    const faces = newFontFaces(input.fontFaces);
    await this.requireFontFiles(organizationId, faces);
    const now = this.clock.now();
    const font: CustomFont = {
      id: this.ids.next(),
      organizationId,
      fontFamily,
      faces,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.fonts.insert(font, FONTS_PER_ORGANIZATION_MAX)))
      throw new ConflictError(`An organization keeps at most ${FONTS_PER_ORGANIZATION_MAX} fonts`);
    return (await this.views(organizationId, [font], role))[0];
  }

  async update(
    actor: Actor,
    organizationId: string,
    id: string,
    patch: { fontFamily?: string; fontFaces?: { weight: number; storageKey: string | null }[] },
  ): Promise<CustomFontView> {
    const role = await this.access.require(organizationId, actor, SITE_ROLES.create);
    const font = await this.fonts.get(organizationId, id, true);
    if (!font) throw new NotFoundError('Font', id);
    const fontFamily = patch.fontFamily === undefined ? font.fontFamily : checkFontFamily(patch.fontFamily);
    const faces = patch.fontFaces === undefined ? font.faces : updatedFontFaces(font.faces, patch.fontFaces);
    const given = new Set((patch.fontFaces ?? []).flatMap((f) => (f.storageKey === null ? [] : [f.storageKey])));
    await this.requireFontFiles(
      organizationId,
      faces.filter((f) => given.has(f.storageKey)),
    );
    const updated: CustomFont = { ...font, fontFamily, faces, updatedAt: this.clock.now() };
    await this.fonts.update(updated);
    return (await this.views(organizationId, [updated], role))[0];
  }

  /** A font that is not there, or not the caller's organization's, answers as absent (204, the official convention). */
  async delete(actor: Actor, organizationId: string, id: string): Promise<'deleted' | 'absent'> {
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    await this.access.require(organizationId, actor, SITE_ROLES.create);
    return (await this.fonts.delete(organizationId, id)) ? 'deleted' : 'absent';
  }

  /** Each face names a font file the organization has uploaded (412 otherwise: upload it first). */
  private async requireFontFiles(organizationId: string, faces: FontFaceFile[]): Promise<void> {
    const keys = [...new Set(faces.map((f) => f.storageKey))];
    const found = new Map((await this.files.uploaded(organizationId, keys)).map((f) => [f.key, f]));
    for (const face of faces) {
      const file = found.get(face.storageKey);
      if (!file || file.kind !== 'customization_font')
        throw new PreconditionError(
          `The face of weight ${face.weight} names no uploaded font file of this organization (storage key ${JSON.stringify(face.storageKey)}): upload it first, as kind customization_font`,
        );
    }
  }

  private async views(organizationId: string, fonts: CustomFont[], role: Role): Promise<CustomFontView[]> {
    const keys = [...new Set(fonts.flatMap((f) => f.faces.map((face) => face.storageKey)))];
    const types = new Map((await this.files.uploaded(organizationId, keys)).map((f) => [f.key, f.contentType]));
    const canEdit = roleAtLeast(role, SITE_ROLES.create);
    return fonts.map((font) => ({
      font,
      faces: font.faces.map((f) => ({ ...f, format: fontFormatOf(types.get(f.storageKey) ?? 'font/woff2') })),
      canEdit,
    }));
  }
}
