// markdown-it-footnote ships no typings; @types/markdown-it-footnote names markdown-it's CommonJS typings, which do
// not match the ESM ones the tests compile against. A plugin takes the markdown-it instance.
declare module 'markdown-it-footnote' {
  const footnote: (md: unknown) => void;
  export default footnote;
}
