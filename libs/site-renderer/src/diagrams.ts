import type { DocBlock, DocInline, DocText, JsonDocument } from '@app/content-model';

/**
 * Mermaid diagrams (GitBook's `{% @mermaid/diagram content="…" %}`, an official `integration` block) drawn on the
 * server as SVG by beautiful-mermaid (no DOM, no browser, nothing fetched), once in the site's light colours and
 * once in its dark ones. Each drawing is an image the page holds as a `data:` URL: the site's
 * Content-Security-Policy forbids inline styles in the page, not inside an image, and the page needs no script.
 * Create one per process; `prepare` a document's diagrams before the synchronous render, then `drawn`.
 */
export interface DrawnDiagram {
  light: string;
  dark: string;
}

/** Diagrams kept drawn (by source). */
const KEPT_MAX = 500;
/**
 * Drawing is synchronous CPU work (a layout: ~0.5 s for 100 edges on this machine, growing faster than the
 * diagram): a source over these bounds, or past the first few of a page, is shown as its text instead.
 */
const SOURCE_MAX = 4_000;
const SOURCE_LINES_MAX = 100;
const PER_DOCUMENT_MAX = 8;

type Renderer = (source: string, colors: Record<string, string>) => Promise<string>;
let loaded: Promise<{ render: Renderer; light: Record<string, string>; dark: Record<string, string> }> | null = null;
function renderer() {
  loaded ??= import('beautiful-mermaid').then((m) => ({
    render: (source: string, colors: Record<string, string>) => m.renderMermaid(source, colors),
    light: { ...m.THEMES['github-light'] },
    dark: { ...m.THEMES['github-dark'] },
  }));
  return loaded;
}

/** The mermaid source of a block, or null when it is not a mermaid diagram. */
export function mermaidSource(b: DocBlock): string | null {
  if (b.type !== 'integration' || b.data.integration !== 'mermaid') return null;
  const content = (b.data.props as { content?: unknown } | undefined)?.content;
  return typeof content === 'string' && content.trim() ? content : null;
}

const asImage = (svg: string) =>
  `data:image/svg+xml;base64,${Buffer.from(svg.replace(/@import url\([^)]*\);?/g, ''), 'utf8').toString('base64')}`;

export class MermaidDiagrams {
  private readonly drawings = new Map<string, DrawnDiagram | null>();

  /** Draws the document's diagrams not drawn yet (a source mermaid cannot read is remembered as such). */
  async prepare(doc: JsonDocument): Promise<void> {
    const sources: string[] = [];
    const walk = (nodes: (DocBlock | DocInline | DocText)[] | undefined) => {
      for (const n of nodes ?? []) {
        if (n.object !== 'block') continue;
        const source = mermaidSource(n);
        if (source !== null && !this.drawings.has(source)) sources.push(source);
        walk(n.nodes);
        for (const f of n.fragments ?? []) walk(f.nodes);
      }
    };
    walk(doc.nodes);
    if (!sources.length) return;
    const { render, light, dark } = await renderer();
    for (const source of sources.slice(0, PER_DOCUMENT_MAX)) {
      let drawn: DrawnDiagram | null = null;
      if (source.length <= SOURCE_MAX && source.split('\n').length <= SOURCE_LINES_MAX)
        try {
          drawn = { light: asImage(await render(source, light)), dark: asImage(await render(source, dark)) };
        } catch {
          drawn = null;
        }
      if (this.drawings.size >= KEPT_MAX) this.drawings.delete(this.drawings.keys().next().value!);
      this.drawings.set(source, drawn);
    }
  }

  /** A prepared diagram's images; null when it was not prepared or mermaid could not read it. */
  drawn(source: string): DrawnDiagram | null {
    return this.drawings.get(source) ?? null;
  }
}
