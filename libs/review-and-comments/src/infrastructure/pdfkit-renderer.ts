import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { documentText, emojiText, JsonDocument, markdownToDocument, refToUrl } from '@app/content-model';
import { PdfInput, PdfRenderer } from '../domain/export';

type Doc = PDFKit.PDFDocument;
type Node = NonNullable<JsonDocument['nodes'][number]['nodes']>[number];
type Block = JsonDocument['nodes'][number];

/** DejaVu (npm `dejavu-fonts-ttf`): Latin, Greek, Cyrillic and many symbols; embedded as subsets. */
const FONT_DIR = join(process.cwd(), 'node_modules', 'dejavu-fonts-ttf', 'ttf');
const FONTS = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  boldItalic: 'DejaVuSans-BoldOblique.ttf',
  mono: 'DejaVuSansMono.ttf',
} as const;

const HEADING_SIZE: Record<string, number> = { 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 };
const BODY = 10.5;
const INDENT = 16;

function isImage(bytes: Buffer): boolean {
  const png = bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47;
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8;
  return png || jpeg;
}

/** Content to PDF with pdfkit: headings, paragraphs with marks and links, lists, code, quotes, tables, images. */
@Injectable()
export class PdfkitRenderer extends PdfRenderer {
  async render(input: PdfInput): Promise<Buffer> {
    // pdfkit (with its fonts, ~5 MB of heap) loads on the first export, not with every process.
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: input.title, CreationDate: input.createdAt },
      bufferPages: false,
    });
    for (const [name, file] of Object.entries(FONTS)) doc.registerFont(name, join(FONT_DIR, file));
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve, reject) => {
      doc.on('end', resolve);
      doc.on('error', reject);
    });

    doc.font('bold').fontSize(22).text(input.title);
    doc.font('regular').fontSize(BODY).fillColor('#555555').text(input.subtitle).fillColor('black');
    for (const page of input.pages) {
      doc.moveDown(1.5);
      if (doc.y > doc.page.height - 200) doc.addPage();
      doc
        .font('bold')
        .fontSize(20 - Math.min(page.depth, 3) * 2)
        .text(page.title, doc.page.margins.left + page.depth * INDENT);
      doc.moveDown(0.4);
      for (const block of page.document?.nodes ?? []) await this.block(doc, block, page.depth * INDENT, input);
    }
    doc.end();
    await ended;
    return Buffer.concat(chunks);
  }

  private async block(doc: Doc, b: Block, indent: number, input: PdfInput, prefix = ''): Promise<void> {
    const kids = (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
    switch (b.type) {
      case 'paragraph':
        this.inlines(doc, b.nodes ?? [], indent, BODY, prefix);
        doc.moveDown(0.5);
        return;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        doc.moveDown(0.3);
        this.inlines(doc, b.nodes ?? [], indent, HEADING_SIZE[b.type], '', true);
        doc.moveDown(0.3);
        return;
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks': {
        const start = typeof b.data.start === 'number' ? b.data.start : 1;
        for (const [i, item] of kids.entries()) {
          const mark =
            b.type === 'list-ordered' ? `${start + i}. ` : b.type === 'list-tasks' ? (item.data.checked === true ? '☑ ' : '☐ ') : '• ';
          const inner = (item.nodes ?? []).filter((n): n is Block => n.object === 'block');
          for (const [j, child] of inner.entries()) await this.block(doc, child, indent + INDENT, input, j === 0 ? mark : '');
        }
        return;
      }
      case 'code': {
        const text = kids.map((line) => documentText({ object: 'document', data: {}, nodes: [line] })).join('\n');
        doc
          .font('mono')
          .fontSize(8.5)
          .fillColor('#333333')
          .text(text, doc.page.margins.left + indent + 6, undefined, { lineGap: 1 });
        doc.fillColor('black').moveDown(0.6);
        return;
      }
      case 'blockquote':
        doc.fillColor('#555555');
        for (const child of kids) await this.block(doc, child, indent + INDENT, input);
        doc.fillColor('black');
        return;
      case 'divider': {
        const y = doc.y + 4;
        doc
          .moveTo(doc.page.margins.left + indent, y)
          .lineTo(doc.page.width - doc.page.margins.right, y)
          .strokeColor('#aaaaaa')
          .stroke();
        doc.moveDown(0.8);
        return;
      }
      case 'images':
        for (const img of kids) await this.image(doc, img.data, indent, input);
        return;
      case 'table':
        this.table(doc, b, indent);
        return;
      case 'expandable': {
        const title = b.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
        if (title) this.inlines(doc, title.nodes ?? [], indent, BODY, '▸ ', true);
        for (const child of b.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes ?? [])
          await this.block(doc, child, indent + INDENT, input);
        return;
      }
      case 'html': {
        const text = textContent(parseDocument(typeof b.data.html === 'string' ? b.data.html : '').children).trim();
        if (text)
          doc
            .font('regular')
            .fontSize(BODY)
            .text(text, doc.page.margins.left + indent)
            .moveDown(0.5);
        return;
      }
      default: {
        const text = typeof b.data.markdown === 'string' ? b.data.markdown : documentText({ object: 'document', data: {}, nodes: [b] });
        if (text)
          doc
            .font('regular')
            .fontSize(BODY)
            .text(text, doc.page.margins.left + indent)
            .moveDown(0.5);
      }
    }
  }

  /** Texts and inlines as one flowing run: marks pick the font, links are live and blue. */
  private inlines(doc: Doc, nodes: Node[], indent: number, size: number, prefix: string, bold = false): void {
    const runs: { text: string; font: keyof typeof FONTS; link?: string }[] = [];
    if (prefix) runs.push({ text: prefix, font: bold ? 'bold' : 'regular' });
    const walk = (list: Node[], link?: string) => {
      for (const n of list) {
        if (n.object === 'text')
          for (const l of n.leaves) {
            const has = (m: string) => l.marks.some((x) => x.type === m);
            const font = has('code')
              ? 'mono'
              : has('bold') || bold
                ? has('italic')
                  ? 'boldItalic'
                  : 'bold'
                : has('italic')
                  ? 'italic'
                  : 'regular';
            runs.push({ text: l.text, font, link });
          }
        else if (n.object === 'inline' && n.type === 'link') {
          const ref = n.data.ref;
          walk(n.nodes ?? [], ref.kind === 'url' ? ref.url : undefined);
        } else if (n.object === 'inline' && n.type === 'inline-image')
          runs.push({ text: `[${n.data.alt || 'image'}]`, font: 'italic', link });
        else if (n.object === 'inline' && n.type === 'expression') runs.push({ text: n.data.expression, font: 'regular' });
        else if (n.object === 'inline' && n.type === 'button') {
          const ref = n.data.ref;
          runs.push({ text: `[${n.data.label}]`, font: 'regular', link: ref?.kind === 'url' ? ref.url : link });
        } else if (n.object === 'inline' && n.type === 'icon') continue;
        else if (n.object === 'inline' && n.type === 'annotation') walk(n.nodes ?? [], link);
        else if (n.object === 'inline' && n.type === 'inline-math') runs.push({ text: n.data.formula, font: 'italic', link });
        else if (n.object === 'inline' && n.type === 'emoji') runs.push({ text: emojiText(n.data.code), font: 'regular', link });
        else if (n.object === 'inline' && n.type === 'mention') runs.push({ text: refToUrl(n.data.ref), font: 'regular', link });
        else if (n.object === 'inline')
          runs.push({ text: textContent(parseDocument(n.data.html ?? n.data.markdown ?? '').children), font: 'regular' });
      }
    };
    walk(nodes);
    const visible = runs.filter((r) => r.text !== '');
    if (visible.length === 0) return;
    doc.fontSize(size);
    const x = doc.page.margins.left + indent;
    visible.forEach((r, i) => {
      doc.font(r.font).fillColor(r.link ? '#1a55c4' : 'black');
      const options = { continued: i < visible.length - 1, link: r.link ?? null, underline: !!r.link };
      if (i === 0) doc.text(r.text, x, undefined, options);
      else doc.text(r.text, options);
    });
    doc.fillColor('black');
  }

  private async image(doc: Doc, data: Record<string, unknown>, indent: number, input: PdfInput): Promise<void> {
    const ref = data.ref as { kind: string; file?: string; url?: string } | undefined;
    const bytes = ref ? await input.image(ref) : null;
    const x = doc.page.margins.left + indent;
    if (bytes && isImage(bytes)) {
      const width = doc.page.width - doc.page.margins.right - x;
      if (doc.y > doc.page.height - 260) doc.addPage();
      doc.image(bytes, x, doc.y, { fit: [width, 240] });
      doc.moveDown(0.5);
    } else {
      const alt = typeof data.alt === 'string' && data.alt ? data.alt : 'image';
      doc
        .font('italic')
        .fontSize(BODY)
        .fillColor('#555555')
        .text(`[${alt}]${ref?.url ? ` ${ref.url}` : ''}`, x);
      doc.fillColor('black').moveDown(0.5);
    }
  }

  /** A grid: equal columns, the header row bold; cells show the text of their markdown. */
  private table(doc: Doc, b: Block, indent: number): void {
    const view = b.data.view as { columns: string[] } | undefined;
    const definition = (b.data.definition ?? {}) as Record<string, { title?: string }>;
    const records = Object.values((b.data.records ?? {}) as Record<string, { orderIndex: string; values: Record<string, unknown> }>).sort(
      (x, y) => (x.orderIndex < y.orderIndex ? -1 : 1),
    );
    const columns = view?.columns ?? [];
    if (columns.length === 0) return;
    const cellText = (markdown: unknown) => documentText(markdownToDocument(typeof markdown === 'string' ? markdown : '').document);
    const rows = [columns.map((c) => cellText(definition[c]?.title)), ...records.map((r) => columns.map((c) => cellText(r.values[c])))];
    const x0 = doc.page.margins.left + indent;
    const width = (doc.page.width - doc.page.margins.right - x0) / columns.length;
    doc.fontSize(9);
    rows.forEach((row, r) => {
      doc.font(r === 0 ? 'bold' : 'regular');
      const height = Math.max(...row.map((text) => doc.heightOfString(text, { width: width - 8 }))) + 6;
      if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      row.forEach((text, c) => {
        doc
          .rect(x0 + c * width, y, width, height)
          .strokeColor('#bbbbbb')
          .stroke();
        doc.text(text, x0 + c * width + 4, y + 3, { width: width - 8 });
      });
      doc.x = x0;
      doc.y = y + height;
    });
    doc.moveDown(0.8);
  }
}
