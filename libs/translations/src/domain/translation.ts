import type { Page, PageRequest, Language } from '@app/shared-kernel';
import type { JsonDocument, PageNode, PageTree } from '@app/content-model';

/** Official TranslationStatus: a run is wanted or the last one failed, a run is going on, the result is the latest run's. */
export type TranslationStatus = 'pending' | 'running' | 'completed';

export interface TranslationStats {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDuration: number;
  latestRunDuration: number;
  latestPages: number;
  latestWords: number;
}

export const ZERO_STATS: TranslationStats = {
  runs: 0,
  totalWords: 0,
  totalPages: 0,
  totalDuration: 0,
  latestRunDuration: 0,
  latestPages: 0,
  latestWords: 0,
};

/** What the latest run did (a Quire extension: the official status has no `failed`). */
export interface TranslationRun {
  status: 'completed' | 'failed';
  startedAt: Date;
  finishedAt: Date;
  translator: string | null;
  /** Why a failed run failed (the pair is not installed, the source space is gone …). */
  error: string | null;
}

/** A source page as the last successful run saw it: the target keeps its translation while this holds. */
export interface TranslatedPage {
  title: string;
  document: string | null;
}

export interface Translation {
  id: string;
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: Language;
  language: Language;
  instructions: JsonDocument;
  status: TranslationStatus;
  /** The target space and its revision written by the latest completed run. */
  targetSpaceId: string | null;
  resultRevision: string | null;
  stats: TranslationStats;
  latestRun: TranslationRun | null;
  /** Source pages (by id) as of the latest completed run. */
  pages: Record<string, TranslatedPage>;
  /** The fingerprint of the glossary terms the latest completed run applied ('' for none; glossary.ts). */
  glossary: string;
  /** Set when a run is wanted and not yet started (cleared by the run that takes it). */
  requestedAt: Date | null;
  runStartedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
}

/** Port: translations of an organization. Claims are compare-and-set, so one run at a time. */
export abstract class TranslationRepository {
  abstract insert(t: Translation): Promise<void>;
  abstract find(organizationId: string, id: string): Promise<Translation | null>;
  abstract findById(id: string): Promise<Translation | null>;
  /** Oldest first. */
  abstract list(organizationId: string, page: PageRequest): Promise<Page<Translation>>;
  abstract setInstructions(id: string, instructions: JsonDocument, now: Date): Promise<Translation | null>;
  abstract delete(organizationId: string, id: string): Promise<boolean>;
  /**
   * The spaces that are versions of this one: the source of a translation it belongs to (as source or target)
   * and every target of that source that a run has written; the space itself left out.
   */
  abstract versionsOf(organizationId: string, spaceId: string): Promise<string[]>;
  /** Marks a run as wanted (status pending unless one is running). */
  abstract request(id: string, now: Date): Promise<boolean>;
  /** Takes a wanted run: status running, requestedAt cleared; null when there is none to take (or one runs and is not stale). */
  abstract claim(id: string, now: Date, staleBefore: Date): Promise<Translation | null>;
  /** Writes the end of the run the caller claimed (false when the translation went away or another run took over). */
  abstract finish(t: Translation, startedAt: Date): Promise<boolean>;
  /** Translations whose run is wanted since before `before`, or running since before `staleBefore`. */
  abstract waiting(before: Date, staleBefore: Date): Promise<string[]>;
}

/** The source's pages as `TranslatedPage`s, by id. */
export function pagesOf(tree: PageTree): Record<string, TranslatedPage> {
  const out: Record<string, TranslatedPage> = {};
  const visit = (nodes: PageNode[]) =>
    nodes.forEach((n) => {
      out[n.id] = { title: n.title, document: n.document };
      visit(n.pages);
    });
  visit(tree);
  return out;
}

/**
 * The pages a run must translate: every page when there is no previous result, else those that are new,
 * whose title or body changed since the last completed run, or that the target lost.
 */
export function pagesToTranslate(source: PageTree, previous: Record<string, TranslatedPage>, target: PageTree | null): Set<string> {
  const current = pagesOf(source);
  const inTarget = target ? pagesOf(target) : {};
  return new Set(
    Object.entries(current)
      .filter(([id, page]) => {
        const before = previous[id];
        return !target || !before || !inTarget[id] || before.title !== page.title || before.document !== page.document;
      })
      .map(([id]) => id),
  );
}

/**
 * The target tree: the source's structure and page ids; translated titles and bodies for the pages of
 * the run, the target's current page (its translation, with any edit made there) for the others.
 */
export function targetTree(
  source: PageTree,
  translated: Map<string, { title: string; document: string | null }>,
  target: PageTree | null,
): PageTree {
  const kept = new Map<string, PageNode>();
  const index = (nodes: PageNode[]) =>
    nodes.forEach((n) => {
      kept.set(n.id, n);
      index(n.pages);
    });
  if (target) index(target);
  const build = (nodes: PageNode[]): PageNode[] =>
    nodes.map((n) => {
      const t = translated.get(n.id);
      const old = kept.get(n.id);
      const body = t ?? { title: old?.title ?? n.title, document: old ? old.document : n.document };
      return { ...n, title: body.title, document: body.document, pages: build(n.pages) };
    });
  return build(source);
}

/** Whole seconds between two instants (what the official stats count). */
export function durationSeconds(from: Date, to: Date): number {
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
}
