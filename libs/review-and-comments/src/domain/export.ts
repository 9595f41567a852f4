import type { JsonDocument } from '@app/content-model';

/** What a PDF export holds: a title, then pages in reading order (depth gives their nesting). */
export interface ExportPage {
  id: string;
  title: string;
  depth: number;
  document: JsonDocument | null;
}

export interface PdfInput {
  title: string;
  subtitle: string;
  pages: ExportPage[];
  /** Bytes of an image the content references (a file of the revision); null to print its alt text. */
  image: (ref: { kind: string; file?: string; url?: string }) => Promise<Buffer | null>;
  createdAt: Date;
}

/** Renders content to PDF bytes (a maintained PDF library behind it). */
export abstract class PdfRenderer {
  abstract render(input: PdfInput): Promise<Buffer>;
}
