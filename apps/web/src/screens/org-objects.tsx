import type { Collection as CollectionObject, OpenAPISpec } from '@gitbook/api';
import { api, call } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';

/** A collection (its `urls.app`): its description, and the collections and spaces inside it. */
export function Collection(props: { id: string }) {
  const { data, error } = useLoad(async () => {
    const collection = (await api.collections.getCollectionById(props.id)).data;
    const [spaces, collections] = await Promise.all([
      api.collections.listSpacesInCollectionById(props.id, { limit: 1000 }),
      api.orgs.listCollectionsInOrganizationById(collection.organization, { limit: 1000 }),
    ]);
    return {
      collection,
      spaces: spaces.data.items,
      collections: (collections.data.items as CollectionObject[]).filter((c) => c.parent === props.id),
    };
  }, [props.id]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Collection</h1>
        <Loading error={error} />
      </>
    );
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${data.collection.organization}`}>Organization</Link>
        {data.collection.parent ? (
          <>
            {' '}
            · <Link to={`/c/${data.collection.parent}`}>Parent collection</Link>
          </>
        ) : null}
      </p>
      <h1 tabIndex={-1}>{data.collection.title}</h1>
      {data.collection.description ? <p>{data.collection.description}</p> : null}
      <nav aria-label="In this collection">
        <ul className="tree">
          {data.collections.map((c) => (
            <li key={c.id}>
              <Link to={`/c/${c.id}`} className="collection">
                {c.title}
              </Link>
            </li>
          ))}
          {data.spaces.map((s) => (
            <li key={s.id}>
              <Link to={`/s/${s.id}`}>{s.title || 'Untitled space'}</Link>
            </li>
          ))}
        </ul>
        {data.collections.length || data.spaces.length ? null : <p>This collection is empty.</p>}
      </nav>
    </>
  );
}

/** An OpenAPI specification (its `urls.app`): where it comes from, its processing and errors, its versions. */
export function OpenApiSpec(props: { org: string; slug: string }) {
  const { data, error } = useLoad(async () => {
    const [spec, versions] = await Promise.all([
      api.orgs.getOpenApiSpecBySlug(props.org, props.slug),
      api.orgs.listOpenApiSpecVersions(props.org, props.slug, { limit: 20 }),
    ]);
    return {
      spec: spec.data as OpenAPISpec & { lastProcessedErrors?: { message: string }[] },
      versions: versions.data.items as { id: string; createdAt: string }[],
    };
  }, [props.org, props.slug]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>OpenAPI specification</h1>
        <Loading error={error} />
      </>
    );
  const { spec } = data;
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}`}>Organization</Link>
      </p>
      <h1 tabIndex={-1}>{spec.slug}</h1>
      <dl className="facts">
        <dt>Source</dt>
        <dd>{spec.sourceURL ? <code className="secret">{spec.sourceURL}</code> : 'uploaded'}</dd>
        <dt>Processing</dt>
        <dd>{spec.processingState}</dd>
        <dt>Visibility</dt>
        <dd>{spec.visibility}</dd>
      </dl>
      {spec.lastProcessedErrors?.length ? (
        <>
          <h2>Errors of the last processing</h2>
          <ul className="error">
            {spec.lastProcessedErrors.slice(0, 50).map((e, i) => (
              <li key={i}>{e.message}</li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>Versions</h2>
      {data.versions.length ? (
        <ul>
          {data.versions.map((v) => (
            <li key={v.id}>
              <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time>
            </li>
          ))}
        </ul>
      ) : (
        <p>No version yet.</p>
      )}
    </>
  );
}

interface Cluster {
  id: string;
  label: string;
  summary: string;
  icon: string;
  status?: string;
  weeklyPulse: number[];
  stats: { issues: number; conversations: number };
}

/** An issues cluster of the organization's conversations (its `urls.app`): what it is about and how often. */
export function IssuesCluster(props: { org: string; id: string }) {
  const { data, error } = useLoad(async () => {
    // The official API lists clusters (no read of one): pages are walked until it is found.
    let next: string | undefined;
    for (let round = 0; round < 50; round++) {
      const page = await call<{ items: Cluster[]; next?: { page: string } }>(
        'GET',
        `/orgs/${props.org}/conversations-clusters?limit=100${next ? `&page=${encodeURIComponent(next)}` : ''}`,
      );
      const found = page.items.find((c) => c.id === props.id);
      if (found) return found;
      if (!page.next) break;
      next = page.next.page;
    }
    throw new Error('This cluster was not found.');
  }, [props.org, props.id]);
  // What people reported in it (the official list of issues, by cluster), newest first; asked once the cluster is found.
  const found = data?.id;
  const { data: issues, error: issuesError } = useLoad(
    async () =>
      found
        ? (
            await call<{ items: { issue: { id: string; title: string; summary: string; createdAt: string } }[] }>(
              'GET',
              `/orgs/${props.org}/conversations-issues?cluster=${encodeURIComponent(found)}&limit=50`,
            )
          ).items.map((i) => i.issue)
        : [],
    [props.org, found],
  );
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Issues cluster</h1>
        <Loading error={error} />
      </>
    );
  const max = Math.max(1, ...data.weeklyPulse);
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}`}>Organization</Link>
      </p>
      <h1 tabIndex={-1}>{data.label}</h1>
      <p>{data.summary}</p>
      <p className="meta">
        {data.stats.issues} issues in {data.stats.conversations} conversations
      </p>
      <h2>The last 13 weeks</h2>
      <ol className="pulse" aria-label="Issues per week, oldest first">
        {data.weeklyPulse.map((n, i) => (
          <li key={i} aria-label={`${13 - i} weeks ago: ${n}`}>
            <meter min={0} max={max} value={n} aria-hidden="true" />
            <span aria-hidden="true">{n}</span>
          </li>
        ))}
      </ol>
      <h2>Issues</h2>
      {issues ? (
        <ul className="issues" aria-label="Issues in this cluster">
          {issues.map((i) => (
            <li key={i.id}>
              <strong>{i.title}</strong> <time dateTime={i.createdAt}>{new Date(i.createdAt).toLocaleDateString()}</time>
              {i.summary && i.summary !== i.title ? <p>{i.summary}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <Loading error={issuesError} />
      )}
    </>
  );
}
