/**
 * The stylesheet and script every published site loads from its own origin (the Content-Security-Policy
 * allows nothing inline). `siteCss` puts the site's primary colour in front of the shared rules.
 */
const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{--radius:6px;--bg:#fff;--fg:#1f2328;--muted:#57606a;--border:#d0d7de;--code-bg:#f6f8fa;--link:var(--primary);
--info:#0969da;--success:#1a7f37;--warning:#9a6700;--danger:#cf222e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root:not(.theme-light){--link:color-mix(in srgb,var(--primary) 55%,#fff);--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#30363d;--code-bg:#161b22;
--info:#4493f8;--success:#3fb950;--warning:#d29922;--danger:#f85149}}
:root.theme-dark{--link:color-mix(in srgb,var(--primary) 55%,#fff);--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#30363d;--code-bg:#161b22;--info:#4493f8;--success:#3fb950;--warning:#d29922;--danger:#f85149}
html{background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,input:focus-visible,pre:focus-visible,.table:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:.5rem;z-index:10}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.site-header{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--border)}
.site-title{font-weight:700;font-size:1.15rem;color:var(--fg);text-decoration:none;display:flex;align-items:center;gap:.5rem}
.site-title img{height:2rem}
.logo-dark,.img-dark{display:none}
@media (prefers-color-scheme:dark){:root:not(.theme-light) :is(.logo-dark,.img-dark){display:inline}:root:not(.theme-light) :is(.logo-light,.img-light){display:none}}
:root.theme-dark :is(.logo-dark,.img-dark){display:inline}:root.theme-dark :is(.logo-light,.img-light){display:none}
.corners-straight{--radius:0}.corners-circular{--radius:16px}
.site-footer{border-top:1px solid var(--border);padding:1.5rem;display:flex;flex-wrap:wrap;gap:2rem;justify-content:space-between;font-size:.9rem;color:var(--muted)}
.site-footer nav{display:flex;flex-wrap:wrap;gap:2.5rem}
.site-footer ul{list-style:none;margin:0;padding:0}
.footer-title{font-weight:600;color:var(--fg);margin:0 0 .5rem}
.sections ul,.header-links ul,.variants ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
.sections a[aria-current=page],.variants a[aria-current=page]{font-weight:700}
.search{margin-left:auto}
.site-header{position:relative}
.suggest{position:absolute;right:1.5rem;top:100%;width:min(32rem,92vw);max-height:70vh;overflow:auto;z-index:20;background:var(--bg);border:1px solid var(--border);border-radius:8px;box-shadow:0 8px 24px rgba(0,0,0,.15)}
.suggest ul{list-style:none;margin:0;padding:.25rem}
.suggest a{display:flex;flex-direction:column;gap:.1rem;padding:.5rem .75rem;border-radius:var(--radius);color:var(--fg);text-decoration:none}
.suggest a:hover,.suggest a:focus{background:var(--code-bg)}
.suggest .where,.suggest .excerpt{font-size:.85rem;color:var(--muted)}
.search input{padding:.35rem .6rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--fg)}
.layout{display:grid;grid-template-columns:minmax(14rem,18rem) minmax(0,1fr);max-width:90rem;margin:0 auto}
.sidebar{padding:1.5rem 1rem;border-right:1px solid var(--border);font-size:.95rem}
.sidebar ul{list-style:none;margin:0;padding-left:.75rem}
.sidebar .nav-tree{padding-left:0}
.sidebar li{margin:.15rem 0}
.sidebar a{color:var(--fg);text-decoration:none}
.sidebar a.current{color:var(--link);font-weight:600}
.sidebar .has-children{display:grid;grid-template-columns:1fr auto;align-items:start}
.sidebar .has-children>details{display:contents}
.sidebar .has-children>details>summary{grid-column:2;grid-row:1;cursor:pointer;list-style:none;width:1.5rem;text-align:center;color:var(--muted)}
.sidebar .has-children>details>summary::-webkit-details-marker{display:none}
.sidebar .has-children>details>summary::before{content:"▸";display:inline-block}
.sidebar .has-children>details[open]>summary::before{transform:rotate(90deg)}
.sidebar .has-children>details>ul{grid-column:1/span 2}
.sidebar .has-more>a::after{content:" ▸";color:var(--muted)}
.nav-group{font-weight:600;text-transform:uppercase;font-size:.8rem;color:var(--muted)}
.variants{margin-bottom:1rem}
main{padding:1.5rem 2.5rem;min-width:0;display:grid;grid-template-columns:minmax(0,48rem) 14rem;gap:2rem;align-content:start}
main>nav.breadcrumbs,main>.pager{grid-column:1}
article{grid-column:1}
.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0;padding:0;font-size:.9rem}
.breadcrumbs li+li::before{content:"/";margin-right:.5rem;color:var(--muted)}
.description{color:var(--muted);font-size:1.1rem}
.toc{grid-column:2;grid-row:1/span 4;position:sticky;top:1rem;align-self:start;font-size:.9rem}
.toc ul{list-style:none;padding:0}
.toc-3{padding-left:.75rem}.toc-4{padding-left:1.5rem}
.toc-title{font-weight:600}
.anchor{margin-left:.4rem;text-decoration:none;color:var(--muted);opacity:0}
h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:1}
.align-center{text-align:center}.align-right{text-align:right}.align-left{text-align:left}
figure{margin:1rem 0}
figure.code{position:relative}
figure.code figcaption{font-size:.85rem;color:var(--muted);padding:.25rem .75rem;border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0}
pre{background:var(--code-bg);padding:.75rem 1rem;border-radius:var(--radius);overflow:auto;font-size:.875rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--code-bg);padding:.1rem .3rem;border-radius:4px}
pre.numbered code{counter-reset:line}
pre.numbered .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;color:var(--muted)}
.copy{position:absolute;right:.5rem;top:.5rem;font-size:.8rem}
figure.code pre{padding-right:4.5rem}
:root{--c-green:#1a7f37;--c-blue:#0969da;--c-red:#cf222e;--c-orange:#bc4c00;--c-yellow:#7d4e00;--c-purple:#8250df;--c-pink:#bf3989;--c-violet:#6639ba;--c-cyan:#1b7c83}
@media (prefers-color-scheme:dark){:root:not(.theme-light){--c-green:#3fb950;--c-blue:#4493f8;--c-red:#f85149;--c-orange:#f0883e;--c-yellow:#d29922;--c-purple:#ab7df8;--c-pink:#f778ba;--c-violet:#b392f0;--c-cyan:#39c5cf}}
:root.theme-dark{--c-green:#3fb950;--c-blue:#4493f8;--c-red:#f85149;--c-orange:#f0883e;--c-yellow:#d29922;--c-purple:#ab7df8;--c-pink:#f778ba;--c-violet:#b392f0;--c-cyan:#39c5cf}
mark.color{background:none;color:inherit;border-radius:3px;padding:0 .1em}
.color.tc-green{color:var(--c-green)}mark.bg-green{background:color-mix(in srgb,var(--c-green) 16%,transparent)}.color.tc-blue{color:var(--c-blue)}mark.bg-blue{background:color-mix(in srgb,var(--c-blue) 16%,transparent)}.color.tc-red{color:var(--c-red)}mark.bg-red{background:color-mix(in srgb,var(--c-red) 16%,transparent)}.color.tc-orange{color:var(--c-orange)}mark.bg-orange{background:color-mix(in srgb,var(--c-orange) 16%,transparent)}.color.tc-yellow{color:var(--c-yellow)}mark.bg-yellow{background:color-mix(in srgb,var(--c-yellow) 16%,transparent)}.color.tc-purple{color:var(--c-purple)}mark.bg-purple{background:color-mix(in srgb,var(--c-purple) 16%,transparent)}.color.tc-pink{color:var(--c-pink)}mark.bg-pink{background:color-mix(in srgb,var(--c-pink) 16%,transparent)}.color.tc-violet{color:var(--c-violet)}mark.bg-violet{background:color-mix(in srgb,var(--c-violet) 16%,transparent)}.color.tc-cyan{color:var(--c-cyan)}mark.bg-cyan{background:color-mix(in srgb,var(--c-cyan) 16%,transparent)}.color.tc-primary{color:var(--link)}mark.bg-primary{background:color-mix(in srgb,var(--link) 16%,transparent)}.color.tc-info{color:var(--info)}mark.bg-info{background:color-mix(in srgb,var(--info) 16%,transparent)}.color.tc-success{color:var(--success)}mark.bg-success{background:color-mix(in srgb,var(--success) 16%,transparent)}.color.tc-warning{color:var(--warning)}mark.bg-warning{background:color-mix(in srgb,var(--warning) 16%,transparent)}.color.tc-danger{color:var(--danger)}mark.bg-danger{background:color-mix(in srgb,var(--danger) 16%,transparent)}.color.tc-tint{color:var(--muted)}mark.bg-tint{background:color-mix(in srgb,var(--muted) 16%,transparent)}
.prompt{border:1px solid var(--border);border-radius:var(--radius);padding:.5rem 1rem;margin:1rem 0}
.prompt>summary{cursor:pointer;font-weight:600}
.prompt-providers{display:flex;gap:1rem;font-size:.9rem}
.hint{--tone:var(--info);display:grid;grid-template-columns:auto minmax(0,1fr);margin:1rem 0;font-size:.9rem;border-radius:var(--radius);overflow:hidden;background:color-mix(in srgb,var(--tone) 9%,var(--bg))}
.hint-success{--tone:var(--success)}.hint-warning{--tone:var(--warning)}.hint-danger{--tone:var(--danger)}
.hint-icon{padding:1rem 0 1rem 1rem;color:var(--tone)}.hint-icon .icon{width:1.2em;height:1.2em;vertical-align:-.2em}
.hint-body{padding:1rem 1rem 1rem .75rem;min-width:0}.hint-body:empty{padding:0}.hint-body>:first-child{margin-top:0}.hint-body>:last-child{margin-bottom:0}
.hint-headed{border-left:2px solid var(--tone);border-radius:0 var(--radius) var(--radius) 0;background:color-mix(in srgb,var(--tone) 5%,var(--bg))}
.hint-headed .hint-icon,.hint-head{background:color-mix(in srgb,var(--tone) 14%,var(--bg))}
.hint-head{padding:1rem 1rem 1rem .75rem}.hint-head>*{margin:0;font-size:1em}.hint-headed .hint-body{grid-column:2}
.hint pre,.hint .hint{border:1px solid var(--border)}
.table{overflow-x:auto}
table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid var(--border);padding:.4rem .75rem}
img{max-width:100%;height:auto}
ul.tasks{list-style:none;padding-left:1rem}
.expandable{border:1px solid var(--border);border-radius:var(--radius);padding:.5rem 1rem;margin:1rem 0}.expandable>summary{cursor:pointer;font-weight:500}.expandable[open]>summary{margin-bottom:.5rem}
.tabs .tab{border:1px solid var(--border);border-radius:var(--radius);padding:.25rem 1rem;margin:.5rem 0}
.tab-title{font-weight:600}
.math{overflow-x:auto}
.columns{display:grid;grid-auto-flow:column;gap:1.5rem}
.api-operation{border-top:1px solid var(--border);margin:2rem 0;padding-top:.5rem}
.api-endpoint{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;overflow-wrap:anywhere}
.api-method{font-weight:700;font-size:.8rem;padding:.1rem .5rem;border-radius:4px;border:1px solid currentColor}
.api-get{color:var(--success)}.api-post{color:var(--info)}.api-put,.api-patch{color:var(--warning)}.api-delete{color:var(--danger)}
.api-required{color:var(--danger);font-size:.85rem}.api-deprecated{color:var(--warning);font-weight:600}
.api-type,.api-content-type{color:var(--muted);font-size:.9rem;margin:.25rem 0}
.api-schema ul{list-style:none;padding-left:1rem;border-left:1px solid var(--border)}
.api-schema li{margin:.5rem 0}.api-schema li p{margin:.2rem 0}
.api-response{border:1px solid var(--border);border-radius:var(--radius);padding:.25rem .75rem;margin:.5rem 0}
.api-response summary{cursor:pointer}
.api-missing{border-left:4px solid var(--warning);padding:.25rem 1rem;background:var(--code-bg)}
.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:2rem;border-top:1px solid var(--border);padding-top:1rem}
.pager a{display:flex;flex-direction:column;text-decoration:none}
.pager span{font-size:.8rem;color:var(--muted)}
.pager .next{margin-left:auto;text-align:right}
.hits{padding-left:1.25rem}.hits li{margin:1rem 0}.hits .where{color:var(--muted);font-size:.85rem;margin:.1rem 0}
mark{background:color-mix(in srgb,var(--primary) 25%,transparent);color:inherit}
.icon{width:1em;height:1em;vertical-align:-.125em;fill:currentColor}
.page-actions{display:flex;margin:.25rem 0 1.25rem;font-size:.875rem}
.page-actions>*{display:inline-flex;position:relative;border:1px solid var(--border);border-radius:var(--radius)}
.copy-page,.actions-menu>summary{display:inline-flex;align-items:center;gap:.45em;padding:.3rem .7rem;background:none;border:0;color:var(--fg);font:inherit;cursor:pointer}
.copy-page[hidden]{display:none}
.copy-page:not([hidden])+.actions-menu>summary{border-left:1px solid var(--border);padding:.3rem .5rem}
.copy-page:not([hidden])+.actions-menu .actions-label{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.actions-menu>summary{list-style:none}.actions-menu>summary::-webkit-details-marker{display:none}
.actions-menu[open]>summary .icon{transform:rotate(180deg)}
.actions-list{position:absolute;left:0;top:calc(100% + .3rem);z-index:20;min-width:15rem;display:flex;flex-direction:column;padding:.3rem;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 6px 18px rgba(0,0,0,.15)}
.actions-list a{display:flex;align-items:center;gap:.6em;padding:.45rem .6rem;border-radius:4px;color:var(--fg);text-decoration:none}
.actions-list a:hover,.actions-list a:focus-visible{background:var(--code-bg)}
.actions-list .icon{color:var(--muted)}
.last-updated{margin-top:2.5rem;font-size:.875rem;color:var(--muted)}
.page-feedback{margin-top:2.5rem;padding-top:1rem;border-top:1px solid var(--border);font-size:.9rem;display:flex;flex-direction:column;gap:.6rem}
.page-feedback .feedback-question{margin:0;font-weight:600}
.page-feedback .feedback-comment{display:flex;flex-direction:column;gap:.3rem;color:var(--muted)}
.page-feedback textarea{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);padding:.4rem .6rem;resize:vertical;max-width:36rem}
.page-feedback .ratings{display:flex;flex-wrap:wrap;gap:.5rem}
.page-feedback button{display:inline-flex;align-items:center;gap:.4em;padding:.35rem .8rem;border:1px solid var(--border);border-radius:999px;background:var(--bg);color:var(--fg);font:inherit;cursor:pointer}
.page-feedback button:hover,.page-feedback button[aria-pressed=true]{border-color:var(--primary)}
.page-feedback button:disabled{cursor:default;opacity:.75}
.page-feedback.rated .feedback-comment,.page-feedback.enhanced:not(.rated) .feedback-comment{display:none}
.page-feedback.rated.commenting .feedback-comment{display:flex}
.page-feedback .feedback-thanks{margin:0;color:var(--success);order:3}
.page-feedback.enhanced .feedback-comment{order:2}
.page-feedback .feedback-comment button{align-self:flex-start}
.theme-toggle{padding:.35rem .6rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--fg);font:inherit;font-size:.875rem;cursor:pointer}
.diagram{margin:1.25rem 0;text-align:center}.diagram img{max-width:100%;height:auto}
.annotation{position:relative}
img.inline-line{height:1.2em;width:auto;vertical-align:-.2em}
pre .line.highlighted{background:color-mix(in srgb,var(--primary) 14%,transparent);display:inline-block;min-width:100%}
.broken-link{color:var(--danger);text-decoration:underline wavy var(--danger);text-underline-offset:.25em;cursor:help}
.annotated{font-style:normal;text-decoration:underline dotted;text-underline-offset:.25em;cursor:help}
.annotation-body{display:none;position:absolute;left:0;top:1.6em;z-index:15;width:max-content;max-width:min(22rem,80vw);padding:.5rem .75rem;background:var(--bg);color:var(--fg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 6px 18px rgba(0,0,0,.15);font-size:.9rem;font-weight:400}
.annotation:hover .annotation-body,.annotation:focus-within .annotation-body,.annotation.pinned .annotation-body{display:block}
.annotation-block{display:block}.annotation-block+.annotation-block{margin-top:.5rem}.annotation-heading-1,.annotation-heading-2,.annotation-heading-3{font-weight:600}
.button{display:inline-flex;align-items:center;gap:.45em;max-width:100%;margin:.2rem .35rem .2rem 0;border-radius:var(--radius);border:1px solid var(--primary);font-weight:500;text-decoration:none;line-height:1.4}
.button>span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.button-large{padding:.45rem 1rem}.button-medium{padding:.3rem .75rem;font-size:.875rem}.button-small{padding:.2rem .5rem;font-size:.875rem;line-height:1.25}
.button-primary{background:var(--primary);color:var(--on-primary)}
.button-secondary{background:color-mix(in srgb,var(--fg) 6%,var(--bg));color:var(--fg);border-color:color-mix(in srgb,var(--fg) 14%,var(--bg))}
.button:hover{filter:brightness(1.08)}
.cards-frame{container-type:inline-size;margin:1.25rem 0}
.cards{list-style:none;padding:0;margin:0;display:grid;gap:1rem;grid-template-columns:minmax(0,1fr)}
@container (min-width:24rem){.cards-medium{grid-template-columns:repeat(2,minmax(0,1fr))}}
@container (min-width:42rem){.cards-medium{grid-template-columns:repeat(3,minmax(0,1fr))}}
@container (min-width:36rem){.cards-large{grid-template-columns:repeat(2,minmax(0,1fr))}}
.cards-carousel{overflow-x:auto;scroll-snap-type:x mandatory;padding:2px 2px .75rem}
.cards-carousel .cards{display:flex}
.cards-carousel .card{flex:none;width:90%;scroll-snap-align:start}
@container (min-width:24rem){.cards-carousel .card{width:calc(45% - .5rem)}}
@container (min-width:36rem){.cards-carousel .cards-medium .card{width:calc(30% - .66rem)}}
.cards-carousel:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
.card{position:relative;display:flex;flex-direction:column;border-radius:var(--radius);overflow:hidden;background:var(--bg);box-shadow:0 0 0 1px color-mix(in srgb,var(--fg) 13%,transparent),0 1px 3px color-mix(in srgb,var(--fg) 8%,transparent);transition:box-shadow .15s}
.card-linked:hover{box-shadow:0 0 0 1px var(--primary),0 1px 3px color-mix(in srgb,var(--fg) 8%,transparent)}
.card-cover{width:100%;aspect-ratio:16/9;object-fit:cover;vertical-align:top;background:var(--code-bg)}
.card-cover.fit-contain{object-fit:contain}.card-cover.fit-fill{object-fit:fill}
.card-body{display:flex;flex-direction:column;gap:.75rem;padding:1rem;font-size:.875rem}
.card-body p{margin:0}
.card-label{color:var(--muted);margin-bottom:.25rem}
.card-target{color:inherit;text-decoration:none}
.card-target::after{content:"";position:absolute;inset:0}
.card-target:focus-visible{outline:none}
.card:has(.card-target:focus-visible){outline:3px solid var(--primary);outline-offset:2px}
.search-results form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.ask{margin:1rem 0;padding:1rem;border:1px solid var(--border);border-radius:var(--radius)}
.ask-answer:empty{display:none}
.ask-answer p{white-space:pre-line}
.cover{grid-column:1;width:100%;height:15rem;object-fit:cover;border-radius:var(--radius)}
.cover-full{grid-column:1/-1}
main.wide{grid-template-columns:minmax(0,1fr) 14rem}
main.wide:not(:has(>.toc)){grid-template-columns:minmax(0,1fr)}
.layout.no-sidebar{grid-template-columns:minmax(0,1fr)}
@media (max-width:60rem){
.layout{grid-template-columns:1fr}
.sidebar{border-right:0;border-bottom:1px solid var(--border)}
main{display:block;padding:1rem}
.toc{position:static}
.columns{grid-auto-flow:row}
figure.code pre{padding-top:2.25rem;padding-right:1rem}
}
`;

/** The text colour that reads on a background of this hex colour (WCAG contrast 4.5 at least): white or near-black. */
function onColor(hex: string): string {
  const h = hex.slice(1);
  const full = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join('') : h.slice(0, 6);
  const channel = (i: number) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05) >= 4.5 ? '#fff' : '#111';
}

/**
 * A site's font: one of the official font names (used when the reader has it: nothing is fetched from a font
 * service), or an uploaded family with its faces (official `CustomizationFontDefinitionInput`), declared by
 * `@font-face` from the files the caller vouches for.
 */
export type SiteFont = string | { family: string; faces: { weight: number; sources: { url: string; format: 'woff2' | 'woff' }[] }[] };

/** What may stand inside a quoted CSS string here: no quote, backslash, brace, semicolon, angle bracket or control. */
const CSS_SAFE = /^[^"'\\{};<>\u0000-\u001f\u007f]+$/;
const FAMILY_SAFE = /^[\p{L}\p{N}][\p{L}\p{N} _.'-]{0,49}$/u;
const FALLBACK = 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif';

function fontCss(font: SiteFont | undefined): string {
  if (typeof font === 'string')
    return /^[A-Za-z][A-Za-z0-9 ]{0,40}$/.test(font) ? `html{font-family:"${font.replace(/([a-z])([A-Z])/g, '$1 $2')}",${FALLBACK}}` : '';
  if (!font || !FAMILY_SAFE.test(font.family)) return '';
  // The family is quoted with " (an apostrophe in it is then plain text).
  const faces = font.faces.flatMap((face) => {
    const sources = face.sources.filter((s) => CSS_SAFE.test(s.url) && (s.format === 'woff2' || s.format === 'woff'));
    if (!Number.isInteger(face.weight) || face.weight < 1 || face.weight > 1000 || sources.length === 0) return [];
    const src = sources.map((s) => `url("${s.url}") format("${s.format}")`).join(',');
    return [`@font-face{font-family:"${font.family}";src:${src};font-weight:${face.weight};font-style:normal;font-display:swap}`];
  });
  return faces.length ? `${faces.join('')}html{font-family:"${font.family}",${FALLBACK}}` : '';
}

/**
 * The stylesheet of a site: its primary colour (validated as a hex colour), the shared rules, its font, then
 * the code highlighter's colour classes.
 */
export function siteCss(primaryColor: string | undefined, highlighting = '', font?: SiteFont): string {
  const primary = primaryColor && /^#[0-9a-fA-F]{3,8}$/.test(primaryColor) ? primaryColor : '#346ddb';
  return `:root{--primary:${primary};--on-primary:${onColor(primary)}}${BASE_CSS}${fontCss(font)}${highlighting}`;
}

/**
 * The published page's stylesheet for a page shown inside another page (the web app, #50): the same rules as
 * the site's, kept inside `root` by `@scope` (CSS Cascading 6), whose `:scope` takes the place of the
 * document's root. The site's frame (header, sidebar, table of contents) is absent from a document, so its
 * rules match nothing there; the reader's dark mode follows `prefers-color-scheme`, as on the site. The root keeps
 * its colour and font but paints no background: the element shows whatever its page puts under it.
 */
export function documentCss(root: string, highlighting = '', primaryColor?: string): string {
  if (!/^[.#]?[A-Za-z][\w-]*$/.test(root)) throw new Error(`not a simple selector: ${root}`);
  const rules = siteCss(primaryColor, highlighting)
    .replace(/:root/g, ':scope')
    // The document's own root rule, without its background: the element sits on its page's (a diff tints it).
    .replace(/(^|[}\n])html\{background:var\(--bg\);/g, '$1:scope{')
    .replace(/(^|[}\n])html\{/g, '$1:scope{');
  return `@scope (${root}) {\n${rules}\n}\n`;
}

/**
 * Progressive enhancement only (everything works without it): a copy button on code blocks, and search as
 * you type in the header (hits from `~search.json`, links in a list under the field: ArrowDown enters the
 * list, arrows move, Escape leaves it). Text is set as text; the excerpt is the server's sanitized HTML
 * (`<mark>` only).
 */
export const SITE_JS = `(function () {
// The theme: the system's, or the reader's choice (kept in this browser); a toggle in the header when the site lets readers choose.
var root = document.documentElement;
var forced = /theme-(light|dark)/.test(root.className) && !root.hasAttribute('data-theme-choice');
var chosen = null;
try { chosen = localStorage.getItem('quire-theme'); } catch (e) {}
function apply(theme) {
  root.classList.remove('theme-light', 'theme-dark');
  if (theme === 'light' || theme === 'dark') root.classList.add('theme-' + theme);
}
if (!forced && (chosen === 'light' || chosen === 'dark')) { root.setAttribute('data-theme-choice', ''); apply(chosen); }
var header = document.querySelector('.site-header');
if (!forced && header) {
  var toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'theme-toggle';
  var names = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };
  var current = chosen === 'light' || chosen === 'dark' ? chosen : 'system';
  toggle.textContent = names[current];
  toggle.addEventListener('click', function () {
    current = current === 'system' ? 'light' : current === 'light' ? 'dark' : 'system';
    apply(current);
    try { if (current === 'system') localStorage.removeItem('quire-theme'); else localStorage.setItem('quire-theme', current); } catch (e) {}
    toggle.textContent = names[current];
  });
  header.appendChild(toggle);
}

// Insights (docs/insights.md): what this visit does, sent in small batches to the site's insights endpoint (the
// official trackEventsInSiteById). Nothing at all when the browser asks not to be tracked (DNT, GPC); no cookie;
// a random session id for this tab only (sessionStorage), which the server hashes and never keeps.
var insights = null;
var insightsMeta = document.querySelector('meta[name="quire-insights"]');
try { insights = insightsMeta && window.fetch ? JSON.parse(insightsMeta.getAttribute('content')) : null; } catch (e) { insights = null; }
if (navigator.doNotTrack === '1' || window.doNotTrack === '1' || navigator.globalPrivacyControl === true) insights = null;
var sessionId = '';
if (insights) {
  try { sessionId = sessionStorage.getItem('quire-session') || ''; } catch (e) {}
  if (!sessionId) {
    sessionId = Math.random().toString(36).slice(2) + Date.now().toString(36);
    try { sessionStorage.setItem('quire-session', sessionId); } catch (e) {}
  }
}
var pending = [], sendTimer = null;
function sendEvents() {
  clearTimeout(sendTimer);
  sendTimer = null;
  while (pending.length) {
    fetch(insights.endpoint, {
      method: 'POST', mode: 'cors', credentials: 'omit', keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ events: pending.splice(0, 50) })
    }).catch(function () {});
  }
}
function track(type, extra, now) {
  if (!insights) return;
  // The page's origin and path, and its utm_* parameters: never the rest of its query (a share key, a token).
  var here = location.origin + location.pathname, utm = [];
  new URLSearchParams(location.search).forEach(function (v, k) { if (/^utm_/.test(k)) utm.push(encodeURIComponent(k) + '=' + encodeURIComponent(v.slice(0, 200))); });
  if (utm.length) here += '?' + utm.join('&');
  var from = null;
  try { if (document.referrer) { var r = new URL(document.referrer); from = r.origin + r.pathname; } } catch (err) { from = null; }
  var event = {
    type: type,
    session: { visitorId: sessionId, sessionId: sessionId, userAgent: navigator.userAgent, language: navigator.language || null, referrer: from, cookies: {} },
    location: { url: here.slice(0, 2000), displayContext: 'site', siteShareKey: null }
  };
  for (var k in insights.location) event.location[k] = insights.location[k];
  for (var x in extra || {}) event[x] = extra[x];
  pending.push(event);
  if (now) sendEvents(); else if (!sendTimer) sendTimer = setTimeout(sendEvents, 1000);
}
window.addEventListener('pagehide', sendEvents);
document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') sendEvents(); });
if (insights && (insights.kind === 'page' || insights.kind === 'not-found')) track('page_view');
if (insights && insights.kind === 'search' && insights.search) track('search_type_query', { query: insights.search.query, resultsCount: insights.search.results });
// A click on a search hit, and on a link to another site (sent at once: the page is about to go).
document.addEventListener('click', function (e) {
  var a = insights && e.target && e.target.closest ? e.target.closest('a[href]') : null;
  if (!a) return;
  if (a.hasAttribute('data-page') && a.hasAttribute('data-space')) {
    var query = a.getAttribute('data-query') || (insights.search && insights.search.query) || '';
    track('search_open_result', { query: query, result: { spaceId: a.getAttribute('data-space'), pageId: a.getAttribute('data-page') } }, true);
    return;
  }
  var url;
  try { url = new URL(a.href, location.href); } catch (err) { return; }
  if (url.origin === location.origin || !/^https?:$/.test(url.protocol)) return;
  var position = a.closest('.site-header') ? 'header' : a.closest('footer') ? 'footer' : a.closest('.sidebar') ? 'sidebar' : 'content';
  track('link_click', { link: { target: { kind: 'url', url: url.href.slice(0, 2000) }, position: position } }, true);
}, true);

// "Ask the documentation" on the search page: the question goes to ~ask; the answer (or why there is none) and
// the pages it draws on are shown as text.
var ask = document.querySelector('section.ask');
if (ask && window.fetch) {
  ask.hidden = false;
  var askButton = ask.querySelector('button');
  var answerBox = ask.querySelector('.ask-answer');
  askButton.addEventListener('click', function () {
    var question = ask.getAttribute('data-question');
    askButton.disabled = true;
    answerBox.textContent = 'Looking for an answer…';
    fetch(ask.getAttribute('data-action') + '?q=' + encodeURIComponent(question), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.error && j.error.message); return j; }); })
      .then(function (body) {
        answerBox.textContent = '';
        var text = document.createElement('p');
        text.textContent = body.answer || body.message || 'No answer.';
        answerBox.appendChild(text);
        var sources = body.citations && body.citations.length ? body.citations : body.sources || [];
        if (sources.length) {
          var ul = document.createElement('ul');
          sources.forEach(function (s) {
            var li = document.createElement('li'), link = document.createElement('a');
            link.href = s.url;
            link.textContent = s.title;
            li.appendChild(link);
            ul.appendChild(li);
          });
          answerBox.appendChild(ul);
        }
        track('ask_question', { query: question, answered: Boolean(body.answer) }, true);
      })
      .catch(function (err) { answerBox.textContent = err.message || 'The question could not be asked.'; })
      .then(function () { askButton.disabled = false; });
  });
}

// "Copy page": the page's markdown to the clipboard (the button is there, hidden, for the script to show).
var copy = document.querySelector('.page-actions .copy-page');
if (copy && navigator.clipboard && window.fetch) {
  var copyLabel = copy.lastChild;
  copy.hidden = false;
  copy.addEventListener('click', function () {
    fetch(copy.getAttribute('data-markdown'), { credentials: 'same-origin' })
      .then(function (r) { return r.text(); })
      .then(function (text) { return navigator.clipboard.writeText(text); })
      .then(function () { copyLabel.textContent = 'Copied'; })
      .catch(function () { copyLabel.textContent = 'Copy failed'; });
  });
}

// The page actions' menu closes on Escape (back to its toggle) and on a click elsewhere.
var menu = document.querySelector('.page-actions details');
if (menu) {
  menu.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && menu.open) { menu.open = false; menu.querySelector('summary').focus(); }
  });
  document.addEventListener('click', function (e) { if (menu.open && !menu.contains(e.target)) menu.open = false; });
}

// An annotation stays open when its words are clicked (again, or Escape: closed).
document.querySelectorAll('.annotation .annotated').forEach(function (a) {
  var set = function (open) { a.parentNode.classList.toggle('pinned', open); };
  a.addEventListener('click', function () { set(!a.parentNode.classList.contains('pinned')); });
  a.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); set(!a.parentNode.classList.contains('pinned')); }
    if (e.key === 'Escape') set(false);
  });
});

// "Last updated 3 days ago": the date relative to now, as GitBook says it (the date stays in the title).
document.querySelectorAll('.last-updated time[datetime]').forEach(function (t) {
  var diff = Date.now() - new Date(t.getAttribute('datetime')).getTime();
  if (!(diff >= 0) || !window.Intl || !Intl.RelativeTimeFormat) return;
  var rtf = new Intl.RelativeTimeFormat(document.documentElement.lang || 'en', { numeric: 'auto' });
  var m = 60 * 1000, hr = 60 * m, d = 24 * hr;
  t.textContent = diff < hr ? rtf.format(-Math.floor(diff / m), 'minute')
    : diff < d ? rtf.format(-Math.floor(diff / hr), 'hour')
    : diff < 30 * d ? rtf.format(-Math.floor(diff / d), 'day')
    : diff < 365 * d ? rtf.format(-Math.floor(diff / (30 * d)), 'month')
    : rtf.format(-Math.floor(diff / (365 * d)), 'year');
});

// "Was this page helpful?": the rating goes at once, then the comment is asked for (sent with the key the
// rating's answer gave). Without the script the form posts both and answers a thank-you page.
var feedback = document.querySelector('form.page-feedback');
if (feedback && window.fetch) {
  feedback.classList.add('enhanced');
  var note = function (text) {
    var p = feedback.querySelector('.feedback-thanks') || document.createElement('p');
    p.className = 'feedback-thanks';
    p.setAttribute('role', 'status');
    p.textContent = text;
    feedback.appendChild(p);
  };
  var send = function (body) {
    return fetch(feedback.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.error && j.error.message); return j; }); });
  };
  feedback.querySelectorAll('button[name=rating]').forEach(function (b) {
    b.addEventListener('click', function (e) {
      e.preventDefault();
      var page = feedback.querySelector('input[name=page]').value;
      feedback.querySelectorAll('button[name=rating]').forEach(function (o) { o.disabled = true; o.setAttribute('aria-pressed', String(o === b)); });
      send({ page: page, rating: b.value }).then(function (given) {
        track('page_post_feedback', { feedback: { rating: b.value } });
        feedback.classList.add('rated', 'commenting');
        var area = feedback.querySelector('textarea');
        var submit = document.createElement('button');
        submit.type = 'button';
        submit.textContent = 'Send comment';
        submit.addEventListener('click', function () {
          if (!area.value.trim()) { area.focus(); return; }
          submit.disabled = true;
          send({ id: given.id, key: given.key, comment: area.value }).then(function () {
            track('page_post_feedback_comment', { feedback: { rating: b.value, comment: area.value.slice(0, 512) } });
            feedback.classList.remove('commenting');
            note('Thank you for your feedback.');
          }).catch(function (err) { submit.disabled = false; note(err.message || 'Your comment could not be sent.'); });
        });
        feedback.querySelector('.feedback-comment').appendChild(submit);
        note('Thank you. Anything to add?');
        area.focus();
      }).catch(function (err) {
        feedback.querySelectorAll('button[name=rating]').forEach(function (o) { o.disabled = false; o.removeAttribute('aria-pressed'); });
        note(err.message || 'Your feedback could not be sent.');
      });
    });
  });
}

document.querySelectorAll('figure.code').forEach(function (f) {
  if (!navigator.clipboard) return;
  var b = document.createElement('button');
  b.type = 'button';
  b.className = 'copy';
  b.textContent = 'Copy';
  b.addEventListener('click', function () {
    navigator.clipboard.writeText(f.querySelector('code').innerText).then(function () { b.textContent = 'Copied'; });
  });
  f.appendChild(b);
});

var form = document.querySelector('form.search');
var input = form && form.querySelector('input[name=q]');
if (!input || !window.fetch) return;
var box = document.createElement('div');
box.className = 'suggest';
box.id = 'suggest';
box.hidden = true;
var list = document.createElement('ul');
box.appendChild(list);
var status = document.createElement('p');
status.className = 'visually-hidden';
status.setAttribute('aria-live', 'polite');
form.appendChild(status);
form.appendChild(box);
input.setAttribute('autocomplete', 'off');
input.setAttribute('aria-controls', 'suggest');
var asked = 0, timer = null, trackTimer = null, tracked = '';
// A search is counted once the visitor stops typing (a second without a key), with its number of results.
function trackSearch(q, n) {
  clearTimeout(trackTimer);
  trackTimer = setTimeout(function () { if (q !== tracked) { tracked = q; track('search_type_query', { query: q, resultsCount: n }); } }, 1000);
}
function close() { box.hidden = true; }
function links() { return Array.prototype.slice.call(list.querySelectorAll('a')); }
function show(items, q) {
  list.textContent = '';
  items.forEach(function (hit) {
    var li = document.createElement('li');
    var a = document.createElement('a');
    a.href = hit.url;
    if (hit.spaceId && hit.pageId) { a.setAttribute('data-space', hit.spaceId); a.setAttribute('data-page', hit.pageId); a.setAttribute('data-query', q); }
    var t = document.createElement('strong');
    t.textContent = hit.section ? hit.title + ' › ' + hit.section : hit.title;
    var w = document.createElement('span');
    w.className = 'where';
    w.textContent = hit.where;
    var e = document.createElement('span');
    e.className = 'excerpt';
    e.innerHTML = hit.excerpt;
    a.appendChild(t); a.appendChild(w); a.appendChild(e);
    li.appendChild(a);
    list.appendChild(li);
  });
  status.textContent = items.length ? items.length + (items.length === 1 ? ' result for ' : ' results for ') + q : 'No results for ' + q;
  box.hidden = items.length === 0;
}
input.addEventListener('input', function () {
  clearTimeout(timer);
  var q = input.value.trim();
  if (q.length < 2) { close(); return; }
  timer = setTimeout(function () {
    var mine = ++asked;
    fetch(form.action + '.json?q=' + encodeURIComponent(q), { credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : { items: [] }; })
      .then(function (body) { if (mine === asked) { show(body.items || [], q); trackSearch(q, typeof body.count === 'number' ? body.count : (body.items || []).length); } })
      .catch(function () { close(); });
  }, 150);
});
input.addEventListener('keydown', function (ev) {
  if (ev.key === 'ArrowDown' && !box.hidden && links().length) { ev.preventDefault(); links()[0].focus(); }
  if (ev.key === 'Escape') close();
});
box.addEventListener('keydown', function (ev) {
  var all = links(), at = all.indexOf(document.activeElement);
  if (ev.key === 'ArrowDown' && at < all.length - 1) { ev.preventDefault(); all[at + 1].focus(); }
  if (ev.key === 'ArrowUp') { ev.preventDefault(); if (at > 0) all[at - 1].focus(); else input.focus(); }
  if (ev.key === 'Escape') { close(); input.focus(); }
});
document.addEventListener('click', function (ev) { if (!form.contains(ev.target)) close(); });
})();
`;
