import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

// The web app's reads of rendered content (Quire extensions, #50): a page, markdown previewed, a page's change.

/** A page as the published site renders it (Quire extension, for the web app). */
export class RenderedPageDto {
  @ApiProperty({ enum: ['rendered-page'] }) object: 'rendered-page';
  id: string;
  title: string;
  @ApiProperty({ description: "The page's body as HTML, as the published site renders it (sanitized); links to pages go to the app" })
  html: string;
}

/** The longest markdown a page's body may be written as (the same bound as a content write's). */
export const PAGE_MARKDOWN_MAX = 1_000_000;

/** Markdown to render as a page would show it (Quire extension, the editor's live preview). */
export class PagePreviewDto {
  @ApiProperty({ maxLength: PAGE_MARKDOWN_MAX, description: "The page's body as markdown, not yet written" })
  @IsString()
  @MaxLength(PAGE_MARKDOWN_MAX)
  markdown: string;
}

/** One top-level block of a page's change, rendered. */
export class RenderedDiffBlockDto {
  @ApiProperty({ enum: ['unchanged', 'added', 'deleted'] }) change: 'unchanged' | 'added' | 'deleted';
  @ApiProperty({ description: 'The block as the published site renders it (sanitized)' }) html: string;
}

/** A page's change as rendered blocks (Quire extension, for the web app's review). */
export class RenderedPageDiffDto {
  @ApiProperty({ enum: ['rendered-page-diff'] }) object: 'rendered-page-diff';
  id: string;
  @ApiProperty({ description: 'The title after the change (before it, for a deleted page)' }) title: string;
  @ApiProperty({
    enum: ['created', 'edited', 'deleted', 'unchanged'],
    description: '`unchanged`: its blocks and title are as before (its other attributes may differ)',
  })
  change: 'created' | 'edited' | 'deleted' | 'unchanged';
  @ApiPropertyOptional({ description: 'The title before the change, when it changed' }) titleBefore?: string;
  @ApiProperty({ type: [RenderedDiffBlockDto], description: 'The blocks in order, aligned by content' }) blocks: RenderedDiffBlockDto[];
}

/** A change request's description for the web app (Quire extension): as markdown to edit, as HTML to read. */
export class RenderedDescriptionDto {
  @ApiProperty({ enum: ['change-request-description'] }) object: 'change-request-description';
  @ApiProperty({ description: "The description as markdown (page links as `./path.md` from the space's root); empty when there is none" })
  markdown: string;
  @ApiProperty({ description: 'The description as the published site renders a page (sanitized); links to pages go to the app' })
  html: string;
}
