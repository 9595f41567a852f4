import { InvalidInputError } from '@app/shared-kernel';
import { sections, siteSpaces, type Structure } from './site';

/**
 * What `searchSiteContent` searches (the official `SiteSearchScope`, and the deprecated body forms it replaced):
 * - `default`: each section's default site space (the site's default one without sections), with
 *   `currentSiteSpace` too when given; `restrictTo: currentSiteSpace` narrows to it alone, `otherSiteSpaces` to the
 *   others;
 * - `specific`: the site spaces listed;
 * - `all`: every site space of every section.
 */
export type SiteSearchScope =
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' };

/** The spaces a scope searches, each once, in structure order. An unknown site space is the caller's mistake (400). */
export function spacesInScope(structure: Structure, scope: SiteSearchScope): string[] {
  const all = siteSpaces(structure).map((s) => s.node);
  const byId = new Map(all.map((n) => [n.id, n]));
  const known = (id: string, field: string) => {
    const node = byId.get(id);
    if (!node) throw new InvalidInputError(`${field}: the site has no site space "${id}"`);
    return node;
  };
  let chosen = all;
  if (scope.mode === 'specific') chosen = scope.siteSpaceIds.map((id) => known(id, 'scope.siteSpaceIds'));
  else if (scope.mode === 'default') {
    const current = scope.currentSiteSpace !== undefined ? known(scope.currentSiteSpace, 'scope.currentSiteSpace') : null;
    if (scope.restrictTo && !current) throw new InvalidInputError('scope.restrictTo needs scope.currentSiteSpace');
    const inSections = sections(structure);
    const defaults =
      inSections.length > 0
        ? inSections.flatMap((s) => s.siteSpaces.filter((n) => n.default).slice(0, 1))
        : structure.siteSpaces.filter((n) => n.default).slice(0, 1);
    if (scope.restrictTo === 'currentSiteSpace') chosen = [current!];
    else if (scope.restrictTo === 'otherSiteSpaces') chosen = defaults.filter((n) => n.id !== current!.id);
    else chosen = current ? [current, ...defaults.filter((n) => n.id !== current.id)] : defaults;
  }
  return [...new Set(chosen.map((n) => n.spaceId))];
}

/** The body of searchSiteContent as it may come: a `scope`, or the deprecated fields it replaced, or neither. */
export interface SiteSearchBody {
  scope?: {
    mode: 'default' | 'specific' | 'all';
    currentSiteSpace?: string;
    restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces';
    siteSpaceIds?: string[];
  };
  mode?: 'specific' | 'current' | 'all';
  siteSpaceIds?: string[];
  siteSpaceId?: string;
}

/** The scope a body asks for (neither a scope nor a deprecated field: the default scope); a contradiction is a 400. */
export function scopeOf(body: SiteSearchBody): SiteSearchScope {
  const deprecated = body.mode !== undefined || body.siteSpaceIds !== undefined || body.siteSpaceId !== undefined;
  if (body.scope) {
    if (deprecated) throw new InvalidInputError('scope replaces mode, siteSpaceIds and siteSpaceId: give one or the other');
    const { mode, siteSpaceIds, currentSiteSpace, restrictTo } = body.scope;
    if (mode === 'specific') {
      if (!siteSpaceIds) throw new InvalidInputError('scope.siteSpaceIds is required with scope.mode "specific"');
      return { mode, siteSpaceIds };
    }
    if (siteSpaceIds) throw new InvalidInputError(`scope.siteSpaceIds goes with scope.mode "specific", not "${mode}"`);
    if (mode === 'all') {
      if (currentSiteSpace !== undefined || restrictTo !== undefined)
        throw new InvalidInputError('scope.currentSiteSpace and scope.restrictTo go with scope.mode "default", not "all"');
      return { mode };
    }
    return { mode, currentSiteSpace, restrictTo };
  }
  if ((body.mode === 'current' || body.mode === 'all') && body.siteSpaceIds)
    throw new InvalidInputError(`siteSpaceIds goes with mode "specific", not "${body.mode}"`);
  if (body.mode !== 'current' && body.mode !== undefined && body.siteSpaceId !== undefined)
    throw new InvalidInputError(`siteSpaceId goes with mode "current", not "${body.mode}"`);
  if (body.mode === 'current') {
    if (body.siteSpaceId === undefined) throw new InvalidInputError('siteSpaceId is required with mode "current"');
    return { mode: 'default', currentSiteSpace: body.siteSpaceId };
  }
  if (body.mode === 'all') return { mode: 'all' };
  if (body.siteSpaceIds) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds };
  if (body.mode === 'specific') throw new InvalidInputError('siteSpaceIds is required with mode "specific"');
  if (body.siteSpaceId !== undefined) throw new InvalidInputError('siteSpaceId goes with mode "current"');
  return { mode: 'default' };
}
