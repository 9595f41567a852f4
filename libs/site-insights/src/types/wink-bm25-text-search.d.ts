// wink-bm25-text-search ships no typings: the part of its API Quire uses (docs: github.com/winkjs/wink-bm25-text-search).
declare module 'wink-bm25-text-search' {
  interface Bm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
    definePrepTasks(tasks: ((text: string) => string[])[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(precision?: number): boolean;
    /** The best `limit` documents as [id, score] pairs, best first. */
    search(text: string, limit?: number): [string, number][];
  }
  const bm25: () => Bm25Engine;
  export default bm25;
}
