import { useState } from 'react';
import type { RevisionPage, Space as SpaceObject } from '@gitbook/api';
import { api, call, messageOf } from '../api';
import { BASE, Link, navigate } from '../router';
import { Loading, useLoad } from './organizations';
import { ErrorText } from '../ui';

export type TreePage = RevisionPage & { pages?: TreePage[]; path?: string; title: string; id: string; type: string };

/** A space: its page tree, and the page its URL names (the first page by default), as the published site renders it. */
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
        <p className="space-links">
          <Link to={`/s/${props.id}/~/changes`}>Change requests</Link> · <Link to={`/s/${props.id}/~/revisions`}>History</Link>
          {data.space.permissions.edit ? (
            <>
              {' '}
              · <Link to={`/s/${props.id}/~/git`}>Git Sync</Link>
            </>
          ) : null}
        </p>
        <PageTree pages={data.pages} base={`/s/${props.id}`} current={current?.id} />
      </nav>
      <article>
        {current ? (
          <>
            {data.space.permissions.edit ? <EditInNewChangeRequest space={props.id} page={current} /> : null}
            <h2 className="page-title">{current.title}</h2>
            <RenderedPage url={`/spaces/${props.id}/content/page/${current.id}/rendered`} />
          </>
        ) : (
          <p>This space has no page yet.</p>
        )}
      </article>
    </div>
  );
}

/** Opens a change request and goes to this page's editor in it (the space's content is never edited in place). */
function EditInNewChangeRequest(props: { space: string; page: TreePage }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="page-actions">
      <button
        type="button"
        onClick={async () => {
          try {
            const cr = (await api.spaces.createChangeRequest(props.space, { subject: `Edit ${props.page.title}` })).data;
            navigate(`/s/${props.space}/~/changes/${cr.number}/${props.page.path}?mode=edit`);
          } catch (e) {
            setError(messageOf(e));
          }
        }}
      >
        Edit in a change request
      </button>
      <ErrorText message={error} />
    </div>
  );
}

export function flatten(pages: TreePage[]): TreePage[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

/** A page tree: each document page links to `{base}/{its path}`. */
export function PageTree(props: { pages: TreePage[]; base: string; current: string | undefined }) {
  return (
    <ul className="tree">
      {props.pages.map((p) => (
        <li key={p.id}>
          {p.type === 'document' ? (
            <Link to={`${props.base}/${p.path}`} className={p.id === props.current ? 'current' : undefined}>
              {p.title}
            </Link>
          ) : (
            <span className="group">{p.title}</span>
          )}
          {p.pages?.length ? <PageTree pages={p.pages} base={props.base} current={props.current} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A page as the published site renders it (the same renderer, through the API), fetched from `url`. */
export function RenderedPage(props: { url: string }) {
  const { data, error } = useLoad(async () => call<{ title: string; html: string }>('GET', props.url), [props.url]);
  return data ? <RenderedHtml html={data.html} /> : <Loading error={error} />;
}

/**
 * The site renderer's HTML (sanitized by the API), its links to the app followed without a reload. In the editor's
 * preview (`followLinks` false) a link does not leave the page being edited: its text would be lost.
 */
export function RenderedHtml(props: { html: string; className?: string; followLinks?: boolean }) {
  return (
    <div
      className={`document-preview${props.className ? ` ${props.className}` : ''}`}
      onClick={(e) => {
        const a = (e.target as Element).closest('a');
        if (!a) return;
        if (props.followLinks === false) return void e.preventDefault();
        if (a.origin !== window.location.origin || !a.pathname.startsWith(BASE) || e.metaKey || e.ctrlKey) return;
        e.preventDefault();
        navigate(a.pathname.slice(BASE.length) + a.search + a.hash);
      }}
      dangerouslySetInnerHTML={{ __html: props.html }}
    />
  );
}

interface RevisionSummary {
  id: string;
  type: string;
  createdAt: string;
  mergedFrom: string | null;
}

/** A space's history: its revisions, newest first, each opening the space as it was then. */
export function Revisions(props: { space: string }) {
  const { data, error } = useLoad(async () => {
    const [space, list] = await Promise.all([
      api.spaces.getSpaceById(props.space),
      call<{ items: RevisionSummary[] }>('GET', `/spaces/${props.space}/revisions?limit=100`),
    ]);
    return { space: space.data as SpaceObject, items: list.items };
  }, [props.space]);
  const kinds: Record<string, string> = { edits: 'Edits', merge: 'Merge of a change request', update: 'Update', rollback: 'Rollback' };
  return (
    <>
      <p className="crumbs">
        <Link to={`/s/${props.space}`}>{data?.space.title ?? 'Space'}</Link>
      </p>
      <h1 tabIndex={-1}>History</h1>
      {data ? (
        <ul className="change-requests">
          {data.items.map((r, i) => (
            <li key={r.id}>
              <Link to={`/s/${props.space}/~/revisions/${r.id}`}>{kinds[r.type] ?? r.type}</Link>{' '}
              <span className="meta">
                <time dateTime={r.createdAt}>{new Date(r.createdAt).toLocaleString()}</time>
                {i === 0 ? ' (current)' : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}

/** The space as it was at a revision (its `urls.app`): that revision's page tree and pages, read only. */
export function Revision(props: { space: string; revision: string; path: string }) {
  const { data, error } = useLoad(async () => {
    const [space, revision, pages] = await Promise.all([
      api.spaces.getSpaceById(props.space),
      api.spaces.getRevisionById(props.space, props.revision),
      api.spaces.listPagesInRevisionById(props.space, props.revision),
    ]);
    return {
      space: space.data as SpaceObject,
      createdAt: (revision.data as { createdAt?: string }).createdAt ?? '',
      pages: (pages.data as unknown as { pages: TreePage[] }).pages,
    };
  }, [props.space, props.revision]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Revision</h1>
        <Loading error={error} />
      </>
    );
  const base = `/s/${props.space}/~/revisions/${props.revision}`;
  const all = flatten(data.pages);
  const current = all.find((p) => p.path === props.path) ?? all.find((p) => p.type === 'document');
  return (
    <div className="space">
      <nav aria-label="Pages" className="pages">
        <p className="crumbs">
          <Link to={`/s/${props.space}`}>{data.space.title}</Link> · <Link to={`/s/${props.space}/~/revisions`}>History</Link>
        </p>
        <h1 tabIndex={-1}>
          {data.space.title} as of <time dateTime={data.createdAt}>{new Date(data.createdAt).toLocaleString()}</time>
        </h1>
        <PageTree pages={data.pages} base={base} current={current?.id} />
      </nav>
      <article>
        {current ? (
          <>
            <h2 className="page-title">{current.title}</h2>
            <RenderedPage url={`/spaces/${props.space}/revisions/${props.revision}/page/${current.id}/rendered`} />
          </>
        ) : (
          <p>The space had no page then.</p>
        )}
      </article>
    </div>
  );
}
