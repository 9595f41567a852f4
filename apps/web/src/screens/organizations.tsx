import { useEffect, useState } from 'react';
import type { Collection, Organization as Org, Space } from '@gitbook/api';
import { api, messageOf } from '../api';
import { Link } from '../router';

/** A list an API call answers, with its loading and error states. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  useEffect(() => {
    let live = true;
    setState({ data: null, error: null });
    load().then(
      (data) => live && setState({ data, error: null }),
      (e: unknown) => live && setState({ data: null, error: messageOf(e) }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return state;
}

export function Loading(props: { error: string | null }) {
  return props.error ? (
    <p className="error" role="alert">
      {props.error}
    </p>
  ) : (
    <p role="status">Loading…</p>
  );
}

/** The organizations of the signed-in person. */
export function Home() {
  const { data, error } = useLoad(async () => (await api.orgs.listOrganizationsForAuthenticatedUser()).data.items, []);
  return (
    <>
      <h1 tabIndex={-1}>Your organizations</h1>
      {data ? (
        data.length ? (
          <ul className="tiles">
            {data.map((o) => (
              <li key={o.id}>
                <Link to={`/o/${o.id}`}>{o.title}</Link>
              </li>
            ))}
          </ul>
        ) : (
          <p>You are not a member of an organization yet.</p>
        )
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}

interface Tree {
  collections: Collection[];
  spaces: Space[];
}

/** An organization: its collections and spaces as a tree, and a search over their titles. */
export function Organization(props: { id: string }) {
  const { data, error } = useLoad(async () => {
    const [org, collections, spaces] = await Promise.all([
      api.orgs.getOrganizationById(props.id),
      api.orgs.listCollectionsInOrganizationById(props.id, { limit: 1000 }),
      api.orgs.listSpacesInOrganizationById(props.id, { limit: 1000 }),
    ]);
    return { org: org.data as Org, tree: { collections: collections.data.items, spaces: spaces.data.items } };
  }, [props.id]);
  const [filter, setFilter] = useState('');
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Organization</h1>
        <Loading error={error} />
      </>
    );
  const match = (title: string) => title.toLowerCase().includes(filter.trim().toLowerCase());
  return (
    <>
      <h1 tabIndex={-1}>{data.org.title}</h1>
      <p>
        <Link to={`/o/${props.id}/members`}>Members and teams</Link> · <Link to={`/o/${props.id}/sites`}>Sites</Link>
      </p>
      <label htmlFor="filter">Find a space</label>
      <input id="filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} maxLength={200} />
      {filter.trim() ? (
        <ul className="tree" aria-label="Spaces found">
          {data.tree.spaces
            .filter((s) => match(s.title))
            .map((s) => (
              <li key={s.id}>
                <Link to={`/s/${s.id}`}>{s.title || 'Untitled space'}</Link>
              </li>
            ))}
        </ul>
      ) : (
        <nav aria-label="Collections and spaces">
          <Branch tree={data.tree} parent={undefined} />
        </nav>
      )}
    </>
  );
}

function Branch(props: { tree: Tree; parent: string | undefined }) {
  const collections = props.tree.collections.filter((c) => (c.parent ?? undefined) === props.parent);
  const spaces = props.tree.spaces.filter((s) => (s.parent ?? undefined) === props.parent);
  if (!collections.length && !spaces.length) return null;
  return (
    <ul className="tree">
      {collections.map((c) => (
        <li key={c.id}>
          <Link to={`/c/${c.id}`} className="collection">
            {c.title}
          </Link>
          <Branch tree={props.tree} parent={c.id} />
        </li>
      ))}
      {spaces.map((s) => (
        <li key={s.id}>
          <Link to={`/s/${s.id}`}>{s.title || 'Untitled space'}</Link>
        </li>
      ))}
    </ul>
  );
}
