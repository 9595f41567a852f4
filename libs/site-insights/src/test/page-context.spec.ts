import { BoundedMap } from '@app/shared-kernel';
import { indexesToDrop, byRarity, withinPassages, identifierWords, PageIndex, recall, remember } from '../domain/page-context';

describe('byRarity: context terms weighted by how rare they are among the queries', () => {
  it('weighs a term few queries share above one most share, and keeps some weight for a term all share', () => {
    const contexts: Record<string, number>[] = [
      { 'page a': 1, 'page common': 1 },
      { 'page a': 1, 'page common': 1 },
      { 'page b': 1, 'page common': 1 },
      { 'page c': 0.5, 'page common': 1 },
    ];
    const weighted = byRarity(contexts);
    expect(weighted[0]['page a']).toBeCloseTo(Math.sqrt(Math.log(1 + 4 / 2)));
    expect(weighted[2]['page b']).toBeCloseTo(Math.sqrt(Math.log(1 + 4)));
    expect(weighted[3]['page c']).toBeCloseTo(0.5 * Math.sqrt(Math.log(1 + 4)));
    expect(weighted[0]['page common']).toBeCloseTo(Math.sqrt(Math.log(2)));
    expect(weighted[0]['page common']).toBeGreaterThan(0);
    expect(weighted[2]['page b']).toBeGreaterThan(weighted[0]['page a']);
    expect(weighted[0]['page a']).toBeGreaterThan(weighted[0]['page common']);
  });

  it('depends on the set of queries, not their order, and leaves an empty context empty', () => {
    const contexts: Record<string, number>[] = [{ 'page a': 1 }, {}, { 'page a': 1, 'group g': 0.5 }];
    const reversed = byRarity([...contexts].reverse()).reverse();
    expect(byRarity(contexts)).toEqual(reversed);
    expect(byRarity(contexts)[1]).toEqual({});
    expect(byRarity([])).toEqual([]);
  });
});

describe('PageIndex', () => {
  const passage = (id: string, words: string[]) => ({ id, page: id, group: null, titleTerms: [], textTerms: words });

  it('makes no index of fewer than three passages with terms', () => {
    expect(PageIndex.of([passage('1', ['outbox']), passage('2', ['inbox']), passage('3', [])])).toBeNull();
  });

  it('leads a query to the passages that hold its words, the best at full weight', () => {
    const index = PageIndex.of([
      passage('1', ['outbox', 'sweeper', 'outbox']),
      passage('2', ['inbox', 'duplicate']),
      passage('3', ['kafka', 'offset']),
      passage('4', ['outbox', 'kafka']),
    ])!;
    const context = index.context(['outbox', 'sweeper']);
    expect(context['passage 1']).toBe(1);
    expect(context['passage 4']).toBeGreaterThan(0);
    expect(context['passage 4']).toBeLessThan(1);
    expect(context['passage 2']).toBeUndefined();
    expect(index.context(['nothing'])).toEqual({});
    expect(index.context([])).toEqual({});
  });

  it('is built in steps, a passage each, into the same index', () => {
    const passages = [passage('1', ['outbox', 'sweeper']), passage('2', ['inbox']), passage('3', []), passage('4', ['kafka', 'outbox'])];
    const steps = PageIndex.building(passages);
    let taken = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) taken += 1;
    expect(taken).toBe(3); // the passage without terms is not indexed
    expect(step.value!.context(['outbox'])).toEqual(PageIndex.of(passages)!.context(['outbox']));
  });
});

describe('identifierWords: API names read as the words they are made of', () => {
  it('follows a camelCase or PascalCase name with its words, split at each lowercase-to-uppercase turn; leaves everything else as it is', () => {
    expect(identifierWords('setErrorHandler')).toBe('setErrorHandler set Error Handler');
    expect(identifierWords('Add-PodeAuth -Name Login')).toBe('Add-PodeAuth Pode Auth -Name Login');
    expect(identifierWords('fastify.decorateRequest("user")')).toBe('fastify.decorateRequest decorate Request("user")');
    expect(identifierWords('onRequest')).toBe('onRequest on Request');
    // Acronyms and words without a turn stay whole.
    for (const whole of ['JWTs', 'OAuth2', 'HTTPServer', 'HTTPS', 'FST_ERR_PLUGIN_TIMEOUT', 'json-schema-to-ts', 'plain words', ''])
      expect(identifierWords(whole)).toBe(whole);
  });
});

describe('withinPassages: one site’s index holds at most so many passages, its first', () => {
  const page = (name: string, passages: number) => ({ name, passages: Array.from({ length: passages }, (_, n) => `${name}${n}`) });

  it('keeps every page of a site within the bound, and none of an empty one', () => {
    const pages = [page('a', 2), page('b', 3)];
    expect(withinPassages(pages, 5)).toEqual(pages);
    expect(withinPassages(pages, 6)).toEqual(pages);
    expect(withinPassages([], 5)).toEqual([]);
  });

  it('keeps a larger site’s first passages, in its order, the last page cut, and no page after it', () => {
    const pages = [page('a', 2), page('b', 3), page('c', 1)];
    expect(withinPassages(pages, 4)).toEqual([page('a', 2), page('b', 2)]);
    expect(withinPassages(pages, 2)).toEqual([page('a', 2)]);
    expect(withinPassages(pages, 0)).toEqual([]);
    expect(pages[1].passages).toHaveLength(3); // the site's pages themselves are left whole
  });
});

describe('indexesToDrop: the sites’ indexes a process keeps stay bounded', () => {
  const limits = { passages: 100, sites: 3 };
  const k = (id: string, passages: number, keep = false) => ({ id, passages, keep });

  it('drops nothing within the limits, and the oldest read first beyond the passages', () => {
    expect(indexesToDrop([k('a', 40), k('b', 60)], limits)).toEqual([]);
    expect(indexesToDrop([k('a', 40), k('b', 30), k('c', 50, true)], limits)).toEqual(['a']);
    expect(indexesToDrop([k('a', 10), k('b', 30), k('c', 90, true)], limits)).toEqual(['a', 'b']);
  });

  it('keeps the site being read however large, and drops the oldest beyond the number of sites', () => {
    expect(indexesToDrop([k('a', 10), k('big', 500, true)], limits)).toEqual(['a']);
    expect(indexesToDrop([k('a', 1), k('b', 1), k('c', 1), k('d', 0, true)], limits)).toEqual(['a']);
    // One being built (no passages yet) counts as a site, but frees no passages.
    expect(indexesToDrop([k('a', 1, true), k('b', 1), k('c', 0), k('d', 0)], limits)).toEqual(['b']);
    expect(indexesToDrop([k('a', 0), k('b', 80), k('c', 50, true)], limits)).toEqual(['b']);
  });
});

describe('recall and remember: where query texts led, kept read-last-dropped-last', () => {
  it('reads a whole read before putting it back, so that a full memo loses none of the texts it held for that read', () => {
    const memo = new BoundedMap<string, number>(3);
    remember(memo, [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    // A read of a, d and e: a is known, d and e are searched; putting the three back must not lose a.
    const { known, unknown } = recall(memo, ['a', 'd', 'e', 'd']);
    expect([...known]).toEqual([['a', 1]]);
    expect(unknown).toEqual(['d', 'e']);
    known.set('d', 4).set('e', 5);
    remember(memo, known);
    expect([...memo]).toEqual([
      ['a', 1],
      ['d', 4],
      ['e', 5],
    ]);
    // The texts read last stay: reading b again after a full memo brings b back and drops the oldest (a).
    const again = recall(memo, ['b']);
    expect(again.unknown).toEqual(['b']);
    remember(memo, [['b', 2]]);
    expect([...memo.keys()]).toEqual(['d', 'e', 'b']);
  });
});
