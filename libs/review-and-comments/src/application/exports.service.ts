import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, Clock, InvalidInputError, UnitOfWork } from '@app/shared-kernel';
import { ContentService, FilesService, SpacesService, type Space } from '@app/spaces-and-content';
import { PdfRenderer } from '../domain/export';
import { ChangeRequestsService } from './change-requests.service';

/** PDF exports of a change request's content (getChangeRequestPDF) and of a space's (getSpacePDF). */
@Injectable()
export class ExportsService {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentService,
    private readonly files: FilesService,
    private readonly renderer: PdfRenderer,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly spaces: SpacesService,
  ) {}

  /**
   * Renders the change request's head (all pages; `page` with its subpages; `page` alone with
   * `only`), stores the PDF as a file of the organization and returns its signed, expiring download path.
   */
  async changeRequestPdf(actor: Actor, spaceId: string, ref: string, options: { page?: string; only?: boolean }): Promise<string> {
    checkOptions(options);
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const cr = v.changeRequest;
    return this.pdf(v.space, cr.revision, options, {
      title: `#${cr.number} ${cr.subject || 'Untitled change request'}`,
      subtitle: `${v.space.title} · change request ${cr.status} · revision ${cr.revision}`,
      name: `change-request-${cr.number}`,
    });
  }

  /** The same of the space's current content (getSpacePDF): the caller needs to read the space (404 otherwise). */
  async spacePdf(actor: Actor, spaceId: string, options: { page?: string; only?: boolean }): Promise<string> {
    checkOptions(options);
    const { space } = await this.spaces.getLive(actor, spaceId);
    return this.pdf(space, space.revision, options, {
      title: space.title || 'Untitled space',
      subtitle: `revision ${space.revision}`,
      name: slugOf(space.title) || 'space',
    });
  }

  private async pdf(
    space: Space,
    revisionId: string,
    options: { page?: string; only?: boolean },
    about: { title: string; subtitle: string; name: string },
  ): Promise<string> {
    const organizationId = space.organizationId;
    const { revision, pages } = await this.content.exportPages(space, revisionId, options.page, options.only === true);
    const bytes = await this.renderer.render({
      title: about.title,
      subtitle: about.subtitle,
      pages,
      createdAt: this.clock.now(),
      image: async (image) => {
        const file = image.kind === 'file' ? revision.files.find((f) => f.id === image.file) : undefined;
        return file ? this.files.bytes(organizationId, file.hash) : null;
      },
    });
    const hash = createHash('sha256').update(bytes).digest('hex');
    await this.uow.run(() => this.files.store(organizationId, [{ hash, bytes }]));
    const name = `${about.name}${options.page ? `-${options.page}` : ''}.pdf`;
    return this.files.downloadPath(
      organizationId,
      { id: '', name, contentType: 'application/pdf', size: bytes.length, hash },
      this.clock.now().getTime(),
    );
  }
}

function checkOptions(options: { page?: string; only?: boolean }): void {
  if (options.only && options.page === undefined) throw new InvalidInputError('only: give the page to export alone (page)');
}

/** A file name's part from a title: lower case letters, digits and dashes. */
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
