import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, WriteTransaction } from '@app/http-kit';
import { SiteRepositoryImport } from '../application/site-repository-import';
import {
  ExportSiteRepositoryDto,
  ImportSiteRepositoryDto,
  SiteRepositoryExportDto,
  SiteRepositoryImportDto,
  toSiteRepositoryExportDto,
  toSiteRepositoryImportDto,
} from './site-git.dto';

/**
 * A whole site from one repository (a Quire extension: the official document has the GitSyncSiteConfig schema
 * but no operation that reads it). The repository is read before the unit of work's first statement
 * (UnitOfWork.outside), then everything is written in it.
 */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId/git')
export class SiteGitController {
  constructor(private readonly imports: SiteRepositoryImport) {}

  @WriteTransaction()
  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'importSiteFromGitRepository',
    summary:
      'Make the site from its repository’s gitbook-docs.yaml (the official GitSyncSiteConfig): sections, groups, site spaces and the spaces, each connected to its directory and imported in the background (site admin; a Quire extension)',
  })
  @ApiOkResponse({ type: SiteRepositoryImportDto })
  async import(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: ImportSiteRepositoryDto,
  ): Promise<SiteRepositoryImportDto> {
    return toSiteRepositoryImportDto(await this.imports.import(actor, organizationId, siteId, body));
  }

  @WriteTransaction()
  @Post('export')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'exportSiteToGitRepository',
    summary:
      'Write the site’s structure back to its repository’s gitbook-docs.yaml, as one commit (what the file holds that the site cannot is kept; site admin; a Quire extension)',
  })
  @ApiOkResponse({ type: SiteRepositoryExportDto })
  async export(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: ExportSiteRepositoryDto,
  ): Promise<SiteRepositoryExportDto> {
    return toSiteRepositoryExportDto(await this.imports.export(actor, organizationId, siteId, body));
  }
}
