import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from '@app/http-kit';
import type { SiteExportResult, SiteImportResult } from '../application/site-repository-import';

export class ImportSiteRepositoryDto {
  /** URL of the Git repository (http(s)); it can contain basic auth credentials, kept sealed by each space's Git Sync */
  @IsString() @MinLength(1) @MaxLength(2048) url: string;
  /** Git ref, in the format "refs/heads/main" */
  @IsString() @MinLength(1) @MaxLength(255) ref: string;
  /** The site's folder in the repository, where its gitbook-docs.yaml is (default: the top) */
  @Optional() @IsString() @MaxLength(500) repoProjectDirectory?: string;
}

export class ImportedSiteSpaceDto {
  /** The space node's key in the file */
  key: string;
  /** The space it is (created by this import, or the one the key had) */
  space: string;
  created: boolean;
  /** The repository folder it is connected to and imported from; null: not from this repository */
  @ApiProperty({ type: String, nullable: true }) directory: string | null;
}

export class SiteRepositoryImportDto {
  @ApiProperty({ enum: ['site-git-import'] }) object: 'site-git-import';
  /** The file read (gitbook-docs.yaml or docs.yaml) and the commit it was read at */
  configPath: string;
  commit: string;
  @ApiProperty({ type: [ImportedSiteSpaceDto] }) spaces: ImportedSiteSpaceDto[];
  /** What the file holds that the site does not keep (drafts, external links, localized titles …) */
  notes: string[];
}

export function toSiteRepositoryImportDto(r: SiteImportResult): SiteRepositoryImportDto {
  return {
    object: 'site-git-import',
    configPath: r.configPath,
    commit: r.commit,
    spaces: r.spaces.map((s) => ({ key: s.key, space: s.spaceId, created: s.created, directory: s.directory })),
    notes: r.notes,
  };
}

export class ExportSiteRepositoryDto extends ImportSiteRepositoryDto {
  /** The commit's message (default: "Update <file> from Quire") */
  @Optional() @IsString() @MinLength(1) @MaxLength(1000) commitMessage?: string;
}

export class SiteRepositoryExportDto {
  @ApiProperty({ enum: ['site-git-export'] }) object: 'site-git-export';
  /** The file written (the one the last import read, else gitbook-docs.yaml in the project folder) */
  configPath: string;
  /** The commit the branch is at afterwards */
  commit: string;
  /** False when the file already said what the site is: nothing was committed */
  changed: boolean;
}

export function toSiteRepositoryExportDto(r: SiteExportResult): SiteRepositoryExportDto {
  return { object: 'site-git-export', configPath: r.configPath, commit: r.commit, changed: r.changed };
}
