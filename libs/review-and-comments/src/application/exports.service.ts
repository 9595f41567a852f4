import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, Clock, InvalidInputError, UnitOfWork } from '@app/shared-kernel';
import { ContentService, FilesService } from '@app/spaces-and-content';
import { PdfRenderer } from '../domain/export';
import { ChangeRequestsService } from './change-requests.service';

/** PDF exports of a change request's content (getChangeRequestPDF). */
@Injectable()
export class ExportsService {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentService,
    private readonly files: FilesService,
    private readonly renderer: PdfRenderer,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * Renders the change request's head (all pages; `page` with its subpages; `page` alone with
   * `only`), stores the PDF as a file of the organization and returns its signed, expiring download path.
   */
  async changeRequestPdf(actor: Actor, spaceId: string, ref: string, options: { page?: string; only?: boolean }): Promise<string> {
    if (options.only && options.page === undefined) throw new InvalidInputError('only: give the page to export alone (page)');
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const cr = v.changeRequest;
    const organizationId = v.space.organizationId;
    const { revision, pages } = await this.content.exportPages(v.space, cr.revision, options.page, options.only === true);
    const bytes = await this.renderer.render({
      title: `#${cr.number} ${cr.subject || 'Untitled change request'}`,
      subtitle: `${v.space.title} · change request ${cr.status} · revision ${cr.revision}`,
      pages,
      createdAt: this.clock.now(),
      image: async (image) => {
        const file = image.kind === 'file' ? revision.files.find((f) => f.id === image.file) : undefined;
        return file ? this.files.bytes(organizationId, file.hash) : null;
      },
    });
    const hash = createHash('sha256').update(bytes).digest('hex');
    await this.uow.run(() => this.files.store(organizationId, [{ hash, bytes }]));
    const name = `change-request-${cr.number}${options.page ? `-${options.page}` : ''}.pdf`;
    return this.files.downloadPath(
      organizationId,
      { id: '', name, contentType: 'application/pdf', size: bytes.length, hash },
      this.clock.now().getTime(),
    );
  }
}
