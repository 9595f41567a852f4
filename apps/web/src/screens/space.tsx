import type { RevisionPage, Space as SpaceObject } from '@gitbook/api';
import { api, call } from '../api';
import { BASE, Link, navigate } from '../router';
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

/** The page as the published site renders it (the same renderer, through the API), its links kept in the app. */
function PageBody(props: { space: string; page: TreePage }) {
  const { data, error } = useLoad(
    async () => call<{ title: string; html: string }>('GET', `/spaces/${props.space}/content/page/${props.page.id}/rendered`),
    [props.space, props.page.id],
  );
  return (
    <>
      <h2 className="page-title">{props.page.title}</h2>
      {data ? (
        <div
          className="document-preview"
          onClick={(e) => {
            const a = (e.target as Element).closest('a');
            if (!a || a.origin !== window.location.origin || !a.pathname.startsWith(BASE) || e.metaKey || e.ctrlKey) return;
            e.preventDefault();
            navigate(a.pathname.slice(BASE.length) + a.hash);
          }}
          dangerouslySetInnerHTML={{ __html: data.html }}
        />
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}
