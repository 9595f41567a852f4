import type { RevisionPage, Space as SpaceObject } from '@gitbook/api';
import { api } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';

type TreePage = RevisionPage & { pages?: TreePage[]; path?: string; title: string; id: string; type: string };

/** A space: its page tree, and the page its URL names (the first page by default), read as markdown. */
export function Space(props: { id: string; path: string }) {
  const { data, error } = useLoad(async () => {
    const [space, pages] = await Promise.all([api.spaces.getSpaceById(props.id), api.spaces.listPages(props.id)]);
    return { space: space.data as SpaceObject, pages: pages.data.pages as TreePage[] };
  }, [props.id]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Space</h1>
        <Loading error={error} />
      </>
    );
  const all = flatten(data.pages);
  const current = all.find((p) => p.path === props.path) ?? all.find((p) => p.type === 'document');
  return (
    <div className="space">
      <nav aria-label="Pages" className="pages">
        <h1 tabIndex={-1}>{data.space.title || 'Untitled space'}</h1>
        <PageTree pages={data.pages} space={props.id} current={current?.id} />
      </nav>
      <article>{current ? <PageBody space={props.id} page={current} /> : <p>This space has no page yet.</p>}</article>
    </div>
  );
}

function flatten(pages: TreePage[]): TreePage[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

function PageTree(props: { pages: TreePage[]; space: string; current: string | undefined }) {
  return (
    <ul className="tree">
      {props.pages.map((p) => (
        <li key={p.id}>
          {p.type === 'document' ? (
            <Link to={`/s/${props.space}/${p.path}`} className={p.id === props.current ? 'current' : undefined}>
              {p.title}
            </Link>
          ) : (
            <span className="group">{p.title}</span>
          )}
          {p.pages?.length ? <PageTree pages={p.pages} space={props.space} current={props.current} /> : null}
        </li>
      ))}
    </ul>
  );
}

function PageBody(props: { space: string; page: TreePage }) {
  const { data, error } = useLoad(
    async () => (await api.spaces.getPageById(props.space, props.page.id, { format: 'markdown' })).data as { markdown?: string },
    [props.space, props.page.id],
  );
  return (
    <>
      <h2>{props.page.title}</h2>
      {data ? <pre className="markdown">{data.markdown ?? ''}</pre> : <Loading error={error} />}
    </>
  );
}
