import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, InvalidInputError, NotFoundError } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, RequestLinks } from '@app/http-kit';
import { CollectionsService, RevisionPresenter, SpacesService, type RevisionScope } from '@app/spaces-and-content';
import { PageQueryDto, toCollectionDto, toSpaceDto } from '@app/wire';
import { ChangeRequestsService } from '../application/change-requests.service';
import { baseOf } from '../domain/change-request';
import { ChangeRequestPresenter } from './change-request-presenter';
import { ContentByUrlDto, ContentByUrlQueryDto } from './content-by-url.dto';

/** What a web app URL names: a collection, or a space's content (main, or a change request's) and a page path in it. */
type AppTarget =
  { kind: 'collection'; id: string } | { kind: 'space'; spaceId: string; changeRequest?: string; pagePath: string } | { kind: 'none' };

/**
 * Reads a web app URL (`urls.app` of Quire's objects) back: `/c/{id}`, `/s/{id}/{page path}`,
 * `/s/{id}/~/changes/{number}/{page path}`; the app's other screens of a space (`/s/{id}/~/…`) name the space.
 */
export function appTarget(url: URL, appRoot: URL): AppTarget {
  const root = appRoot.pathname.replace(/\/+$/, '');
  if (url.origin !== appRoot.origin || (url.pathname !== root && !url.pathname.startsWith(`${root}/`))) return { kind: 'none' };
  let rest: string;
  try {
    rest = decodeURIComponent(url.pathname.slice(root.length)).replace(/^\/+|\/+$/g, '');
  } catch {
    return { kind: 'none' };
  }
  let m = /^c\/([\w-]+)$/.exec(rest);
  if (m) return { kind: 'collection', id: m[1] };
  m = /^s\/([\w-]+)(?:\/(.*))?$/.exec(rest);
  if (!m) return { kind: 'none' };
  const [, spaceId, tail = ''] = m;
  const cr = /^~\/changes\/(\d{1,9})(?:\/(.*))?$/.exec(tail);
  if (cr) return { kind: 'space', spaceId, changeRequest: cr[1], pagePath: cr[2] ?? '' };
  return { kind: 'space', spaceId, pagePath: tail.startsWith('~') ? '' : tail };
}

@ApiTags('urls')
@ApiStandardErrors()
@Controller('urls')
export class ContentByUrlController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly collections: CollectionsService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly changeRequestPresenter: ChangeRequestPresenter,
    private readonly revisions: RevisionPresenter,
  ) {}

  @Get('content')
  @ApiOperation({
    operationId: 'getContentByUrl',
    summary: 'Resolve a URL to a content (space, collection, page)',
    description:
      'A web app URL (`urls.app` of a collection, a space, a page, a change request or one of its pages) read back as what it ' +
      'shows, for a caller who may read it (404 otherwise, and for a URL that is not one of this Quire’s app).',
  })
  @ApiOkResponse({ type: ContentByUrlDto })
  async byUrl(@CurrentActor() actor: Actor, @Query() q: ContentByUrlQueryDto, @RequestLinks() links: Links): Promise<ContentByUrlDto> {
    let url: URL;
    try {
      url = new URL(q.url);
    } catch {
      throw new InvalidInputError('url must be an absolute URL');
    }
    const target = appTarget(url, new URL(links.app('/')));
    if (target.kind === 'none') throw new NotFoundError('Content at URL', q.url);
    if (target.kind === 'collection') {
      const view = await this.collections.get(actor, target.id);
      return { collection: toCollectionDto(view.collection, view.role, links) };
    }
    const page = async (scope: RevisionScope) =>
      target.pagePath
        ? (JSON.parse(
            (await this.revisions.pageJsonByPath(scope, target.pagePath, new PageQueryDto(), links)).toString('utf8'),
          ) as ContentByUrlDto['page'])
        : undefined;
    if (target.changeRequest !== undefined) {
      const view = await this.changeRequests.view(actor, target.spaceId, target.changeRequest);
      const cr = view.changeRequest;
      const scope: RevisionScope = {
        actor,
        space: view.space,
        role: view.role,
        revisionId: cr.revision,
        appBase: `/s/${view.space.id}/~/changes/${cr.number}`,
        linksBase: baseOf(cr),
      };
      const out: ContentByUrlDto = {
        space: toSpaceDto(view.space, view.role, links),
        changeRequest: await this.changeRequestPresenter.dto(view, links),
      };
      const found = await page(scope);
      if (found) out.page = found;
      return out;
    }
    const { space, role } = await this.spaces.getLive(actor, target.spaceId);
    const out: ContentByUrlDto = { space: toSpaceDto(space, role, links) };
    const found = await page({ actor, space, role, revisionId: space.revision, appBase: `/s/${space.id}` });
    if (found) out.page = found;
    return out;
  }
}
