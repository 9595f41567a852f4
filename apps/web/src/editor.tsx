import { useEffect, useRef } from 'react';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/** The app's colours (its CSS variables reach into the shadow root), its focus ring, a monospace face. */
const theme = EditorView.theme({
  '&': { minHeight: '20rem', backgroundColor: 'var(--bg)', color: 'var(--fg)', borderRadius: '6px' },
  '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 8%, transparent)' },
  '.cm-content': { caretColor: 'var(--fg)' },
});

/**
 * Markdown's marks in the app's colours (CSS variables, so light and dark both read at the contrast axe asks):
 * the syntax (fences, `**`, `#`, hint tags' braces) muted, links in the accent, emphasis as emphasis.
 */
const markdownStyle = HighlightStyle.define([
  { tag: tags.heading, fontWeight: 'bold' },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)', textDecoration: 'underline' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator, tags.quote, tags.labelName], color: 'var(--muted)' },
  { tag: tags.monospace, color: 'var(--fg)', backgroundColor: 'var(--panel)' },
]);

/**
 * The one component boundary of editing (#50): a page's markdown in CodeMirror 6. The screen gives the text and
 * hears every change; a block editor of the official document JSON can take this place later. Loaded on its own
 * (a separate bundle), so the app's first load does not carry the editor. Tab indents; Escape then Tab leaves
 * the editor (CodeMirror's own rule), so the keyboard is never trapped.
 */
export default function MarkdownEditor(props: { value: string; label: string; onChange: (value: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    // In a shadow root of its own: CodeMirror then styles itself with a constructed style sheet, which the app's
    // CSP (`style-src 'self'`, no `unsafe-inline`) admits, where the <style> element it adds to a document is refused.
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    shadow.appendChild(parent);
    const view = new EditorView({
      parent,
      root: shadow,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          markdown(),
          theme,
          syntaxHighlighting(markdownStyle),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': props.label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChange.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    return () => {
      view.destroy();
      parent.remove();
    };
    // The editor owns its text once made; a new page gives a new component (keyed by the screen).
  }, []);

  return <div className="editor" ref={host} />;
}
