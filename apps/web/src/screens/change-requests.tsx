import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ChangeRequest, Space as SpaceObject } from '@gitbook/api';
import { api, ApiError, call, messageOf } from '../api';
import { Link, navigate, queryParam } from '../router';
import { Loading, useLoad } from './organizations';
import { flatten, PageTree, RenderedHtml, RenderedPage, type TreePage } from './space';
import { ErrorText, useAction } from '../ui';

/** The editor, in its own bundle: the app's first load does not carry CodeMirror. */
const MarkdownEditor = lazy(() => import('../editor'));

const STATUSES = ['open', 'draft', 'merged', 'archived'] as const;
type Status = (typeof STATUSES)[number];

interface User {
  id: string;
  displayName: string;
}

/** A space's change requests by status (`?status=`, open by default), and a new one. */
export function ChangeRequests(props: { space: string }) {
  const status = (STATUSES as readonly string[]).includes(queryParam('status') ?? '') ? (queryParam('status') as Status) : 'open';
  const { data, error } = useLoad(async () => {
    const [space, list] = await Promise.all([
      api.spaces.getSpaceById(props.space),
      api.spaces.listChangeRequestsForSpace(props.space, { status: status as never, limit: 100 }),
    ]);
    return { space: space.data as SpaceObject, items: list.data.items as ChangeRequest[] };
  }, [props.space, status]);
  return (
    <>
      <p className="crumbs">
        <Link to={`/s/${props.space}`}>{data?.space.title ?? 'Space'}</Link>
      </p>
      <h1 tabIndex={-1}>Change requests</h1>
      <nav aria-label="Status" className="tabs">
        {STATUSES.map((s) => (
          <Link key={s} to={`/s/${props.space}/~/changes?status=${s}`} className={s === status ? 'current' : undefined}>
            {s[0].toUpperCase() + s.slice(1)}
          </Link>
        ))}
      </nav>
      {data?.space.permissions.edit ? <NewChangeRequest space={props.space} /> : null}
      {data ? (
        data.items.length ? (
          <ul className="change-requests">
            {data.items.map((cr) => (
              <li key={cr.id}>
                <Link to={`/s/${props.space}/~/changes/${cr.number}`}>
                  #{cr.number} {cr.subject || 'Untitled change request'}
                </Link>{' '}
                <span className="meta">
                  by {cr.createdBy.displayName}, {cr.comments} comment{cr.comments === 1 ? '' : 's'}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p>No {status} change request.</p>
        )
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}

function NewChangeRequest(props: { space: string }) {
  const [subject, setSubject] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const cr = (await api.spaces.createChangeRequest(props.space, { subject: subject.trim() || undefined })).data;
          navigate(`/s/${props.space}/~/changes/${cr.number}`);
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        Subject <input value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} />
      </label>
      <button type="submit">New change request</button>
      <ErrorText message={error} />
    </form>
  );
}

interface Loaded {
  space: SpaceObject;
  cr: ChangeRequest;
  pages: TreePage[];
}

/**
 * A change request (`/s/{space}/~/changes/{n}`): its overview (what it changes as rendered blocks, reviews,
 * comments, merge), or one of its pages (`…/{page path}`), read or edited (`?mode=edit`).
 */
export function ChangeRequestScreen(props: { space: string; number: string; path: string }) {
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const { data, error } = useLoad(async (): Promise<Loaded> => {
    const [space, cr, pages] = await Promise.all([
      api.spaces.getSpaceById(props.space),
      api.spaces.getChangeRequestById(props.space, props.number),
      api.spaces.listPagesInChangeRequest(props.space, props.number),
    ]);
    return { space: space.data as SpaceObject, cr: cr.data, pages: (pages.data as unknown as { pages: TreePage[] }).pages };
  }, [props.space, props.number, version]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Change request #{props.number}</h1>
        <Loading error={error} />
      </>
    );
  const base = `/s/${props.space}/~/changes/${props.number}`;
  const current = props.path ? flatten(data.pages).find((p) => p.path === props.path) : undefined;
  const editable = data.space.permissions.edit && (data.cr.status === 'open' || data.cr.status === 'draft');
  return (
    <div className="space">
      <nav aria-label="Change request" className="pages">
        <p className="crumbs">
          <Link to={`/s/${props.space}`}>{data.space.title}</Link> · <Link to={`/s/${props.space}/~/changes`}>Change requests</Link>
        </p>
        <h1 tabIndex={-1}>
          #{data.cr.number} {data.cr.subject || 'Untitled change request'}
        </h1>
        <p>
          <span className={`status status-${data.cr.status}`}>{data.cr.status}</span>
        </p>
        <p>
          <Link to={base} className={props.path ? undefined : 'current'}>
            Overview
          </Link>
        </p>
        <PageTree pages={data.pages} base={base} current={current?.id} />
        {editable ? <NewPage space={props.space} number={props.number} onMade={reload} base={base} /> : null}
      </nav>
      <article>
        {!props.path ? (
          <Overview data={data} onChange={reload} />
        ) : current ? (
          <ChangeRequestPage data={data} page={current} base={base} editable={editable} onSaved={reload} />
        ) : (
          <p>This change request has no page at this address.</p>
        )}
      </article>
    </div>
  );
}

function NewPage(props: { space: string; number: string; base: string; onMade: () => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="narrow-form"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const res = (
            await api.spaces.updateChangeRequestContent(
              props.space,
              props.number,
              { changes: [{ operation: 'insert_page', title: title.trim(), document: { markdown: `# ${title.trim()}\n` } } as never] },
              { compat: false },
            )
          ).data as unknown as { changes: { page: { id: string } }[] };
          const made = res.changes[0].page.id;
          const page = (await api.spaces.getPageInChangeRequestById(props.space, props.number, made)).data as { path?: string };
          setTitle('');
          props.onMade();
          navigate(`${props.base}/${page.path}?mode=edit`);
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        New page title <input value={title} required maxLength={255} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <button type="submit">Add page</button>
      <ErrorText message={error} />
    </form>
  );
}

/** A page of the change request: read as it will be published, edited with the live preview, moved or deleted. */
function ChangeRequestPage(props: { data: Loaded; page: TreePage; base: string; editable: boolean; onSaved: () => void }) {
  const { space, cr } = props.data;
  const editing = props.editable && queryParam('mode') === 'edit';
  const at = `${props.base}/${props.page.path}`;
  if (editing) return <PageEditor key={`${cr.revision} ${props.page.id}`} {...props} />;
  return (
    <>
      {props.editable ? (
        <div className="page-actions">
          <Link to={`${at}?mode=edit`} className="button-link">
            Edit page
          </Link>
          <MovePage {...props} />
          <DeletePage {...props} />
        </div>
      ) : null}
      <h2 className="page-title">{props.page.title}</h2>
      <RenderedPage url={`/spaces/${space.id}/change-requests/${cr.number}/content/page/${props.page.id}/rendered`} />
    </>
  );
}

/** The editor (markdown in CodeMirror) beside the live preview, rendered by the site renderer through the API. */
function PageEditor(props: { data: Loaded; page: TreePage; base: string; onSaved: () => void }) {
  const { space, cr } = props.data;
  const at = `/spaces/${space.id}/change-requests/${cr.number}/content/page/${props.page.id}`;
  const { data: source, error } = useLoad(
    async () =>
      (await api.spaces.getPageInChangeRequestById(space.id, String(cr.number), props.page.id, { format: 'markdown' })).data as {
        markdown?: string;
      },
    [at],
  );
  const [text, setText] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ html: string; error?: string } | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const latest = useRef(0);

  // The preview follows the text, a moment after typing stops; an older answer never replaces a newer one.
  useEffect(() => {
    const markdown = text ?? source?.markdown;
    if (markdown === undefined) return;
    const ask = ++latest.current;
    const timer = setTimeout(
      () =>
        call<{ html: string }>('POST', `${at}/preview`, { markdown }).then(
          (r) => ask === latest.current && setPreview({ html: r.html }),
          (e: unknown) => ask === latest.current && setPreview((p) => ({ html: p?.html ?? '', error: messageOf(e) })),
        ),
      text === null ? 0 : 250,
    );
    return () => clearTimeout(timer);
  }, [text, source, at]);

  if (!source) return <Loading error={error} />;
  return (
    <>
      <h2 className="page-title">Editing {props.page.title}</h2>
      <form
        className="editor-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setSaving('Saving…');
          try {
            await api.spaces.updateChangeRequestContent(space.id, String(cr.number), {
              changes: [{ operation: 'update_page', page: props.page.id, document: { markdown: text ?? source.markdown ?? '' } } as never],
            });
            setSaving(null);
            props.onSaved();
            navigate(`${props.base}/${props.page.path}`);
          } catch (err) {
            setSaving(messageOf(err));
          }
        }}
      >
        <div className="editor-panes">
          <section aria-label="Markdown">
            <Suspense fallback={<p role="status">Loading the editor…</p>}>
              <MarkdownEditor value={source.markdown ?? ''} label={`Markdown of ${props.page.title}`} onChange={setText} />
            </Suspense>
          </section>
          <section aria-label="Preview" aria-live="off">
            {preview?.error ? (
              <p className="error" role="alert">
                {preview.error}
              </p>
            ) : null}
            {preview ? <RenderedHtml html={preview.html} followLinks={false} /> : <p role="status">Rendering…</p>}
          </section>
        </div>
        <div className="page-actions">
          <button type="submit" disabled={saving === 'Saving…'}>
            Save
          </button>
          <Link to={`${props.base}/${props.page.path}`} className="button-link">
            Cancel
          </Link>
          {saving && saving !== 'Saving…' ? (
            <p className="error" role="alert">
              {saving}
            </p>
          ) : null}
        </div>
      </form>
    </>
  );
}

/** Moves the page under another page (or to the top), at the end of its new siblings. */
function MovePage(props: { data: Loaded; page: TreePage; base: string; onSaved: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const inside = new Set(flatten([props.page]).map((p) => p.id));
  const targets = flatten(props.data.pages).filter((p) => !inside.has(p.id));
  return (
    <form
      className="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const into = new FormData(e.currentTarget).get('into') as string;
        try {
          await api.spaces.updateChangeRequestContent(props.data.space.id, String(props.data.cr.number), {
            changes: [{ operation: 'update_page', page: props.page.id, into: into || null } as never],
          });
          const moved = (await api.spaces.getPageInChangeRequestById(props.data.space.id, String(props.data.cr.number), props.page.id))
            .data as {
            path?: string;
          };
          props.onSaved();
          navigate(`${props.base}/${moved.path}`);
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        Move under{' '}
        <select name="into" defaultValue="">
          <option value="">(the top)</option>
          {targets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Move</button>
      <ErrorText message={error} />
    </form>
  );
}

/** Deletes the page (and its subpages) in the change request, after a second, explicit press. */
function DeletePage(props: { data: Loaded; page: TreePage; base: string; onSaved: () => void }) {
  const [asked, setAsked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return asked ? (
    <span className="confirm">
      <button
        type="button"
        className="danger"
        onClick={async () => {
          try {
            await api.spaces.updateChangeRequestContent(props.data.space.id, String(props.data.cr.number), {
              changes: [{ operation: 'delete_page', page: props.page.id } as never],
            });
            props.onSaved();
            navigate(props.base);
          } catch (err) {
            setError(messageOf(err));
          }
        }}
      >
        Delete “{props.page.title}” and its subpages
      </button>
      <button type="button" onClick={() => setAsked(false)}>
        Keep it
      </button>
      {error ? (
        <span className="error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  ) : (
    <button type="button" onClick={() => setAsked(true)}>
      Delete page
    </button>
  );
}

interface PageChange {
  type: string;
  page?: { id: string; title: string; path: string };
}

interface Review {
  id: string;
  status: 'approved' | 'changes-requested';
  outdated: boolean;
  reviewer: User;
}

interface CommentItem {
  id: string;
  postedBy: User;
  postedAt: string;
  body: { markdown?: string };
  replies: number;
}

const CONFLICT_REASONS: Record<string, string> = {
  'both-edited': 'was edited here and in the space since this change request began',
  'delete-vs-edit': 'was deleted on one side and edited on the other',
  'both-moved': 'was moved to different places on both sides',
  'both-changed': 'was changed on both sides',
  cycle: 'would end up inside its own subpages',
};

/** What the change request changes (rendered), its reviews, its comments, and its merge. */
function Overview(props: { data: Loaded; onChange: () => void }) {
  const { space, cr } = props.data;
  const [version, setVersion] = useState(0);
  const { data, error } = useLoad(async () => {
    const [changes, reviews, comments] = await Promise.all([
      api.spaces.getChangeRequestChanges(space.id, String(cr.number), { limit: 100 } as never),
      api.spaces.getReviewsByChangeRequestId(space.id, String(cr.number), { limit: 100 } as never),
      api.spaces.listCommentsInChangeRequest(space.id, String(cr.number), { limit: 100 } as never),
    ]);
    return {
      changes: (changes.data as unknown as { changes: PageChange[]; more?: number }).changes,
      more: (changes.data as unknown as { more?: number }).more ?? 0,
      reviews: (reviews.data as unknown as { items: Review[] }).items,
      comments: (comments.data as unknown as { items: CommentItem[] }).items,
    };
  }, [cr.revision, cr.status, version]);
  const refresh = () => setVersion((v) => v + 1);
  const pages = new Map<string, PageChange>();
  for (const c of data?.changes ?? []) if (c.page && c.type.startsWith('page_')) pages.set(c.page.id, c);
  return (
    <>
      <Actions data={props.data} onChange={props.onChange} />
      <Description data={props.data} onChange={props.onChange} />
      <h2>Changes</h2>
      {data ? (
        pages.size ? (
          <>
            {[...pages.values()].map((c) => (
              <PageDiff key={c.page!.id} space={space.id} number={cr.number} page={c.page!} />
            ))}
            {data.more ? <p>And {data.more} more changes.</p> : null}
          </>
        ) : (
          <p>No page changed yet.</p>
        )
      ) : (
        <Loading error={error} />
      )}
      <h2>Reviews</h2>
      {data ? <Reviews data={props.data} reviews={data.reviews} onChange={refresh} /> : null}
      {space.permissions.edit && (cr.status === 'open' || cr.status === 'draft') ? <RequestReviewers data={props.data} /> : null}
      <h2>Comments</h2>
      {data ? <Comments data={props.data} comments={data.comments} onChange={refresh} /> : null}
    </>
  );
}

/** A page's change as the site renders it: deleted blocks struck through, added ones marked. */
function PageDiff(props: { space: string; number: number; page: { id: string; title: string; path: string } }) {
  const { data, error } = useLoad(
    async () =>
      call<{ title: string; change: string; titleBefore?: string; blocks: { change: 'unchanged' | 'added' | 'deleted'; html: string }[] }>(
        'GET',
        `/spaces/${props.space}/change-requests/${props.number}/content/page/${props.page.id}/diff`,
      ),
    [props.space, props.number, props.page.id],
  );
  return (
    <section className="page-diff" aria-label={`Changes to ${props.page.title}`}>
      <h3>
        {props.page.title} <span className="meta">({data?.change ?? 'changed'})</span>
      </h3>
      {data?.titleBefore ? <p className="meta">Was titled “{data.titleBefore}”.</p> : null}
      {data ? (
        data.blocks
          .filter((b, i, all) => b.change !== 'unchanged' || all[i - 1]?.change !== 'unchanged' || all[i + 1]?.change !== 'unchanged')
          .map((b, i) =>
            b.change === 'added' ? (
              <ins key={i} className="block-added">
                <span className="visually-hidden">Added: </span>
                <RenderedHtml html={b.html} />
              </ins>
            ) : b.change === 'deleted' ? (
              <del key={i} className="block-deleted">
                <span className="visually-hidden">Deleted: </span>
                <RenderedHtml html={b.html} />
              </del>
            ) : (
              <div key={i} className="block-unchanged">
                <RenderedHtml html={b.html} />
              </div>
            ),
          )
      ) : (
        <Loading error={error} />
      )}
    </section>
  );
}

/** Ready for review, archive, merge (under the merge rules; conflicts explained page by page). */
function Actions(props: { data: Loaded; onChange: () => void }) {
  const { space, cr } = props.data;
  const [message, setMessage] = useState<{ text: string; conflicts?: { title: string; reason: string; fields: string[] }[] } | null>(null);
  const act = async (run: () => Promise<unknown>) => {
    setMessage(null);
    try {
      await run();
      props.onChange();
    } catch (e) {
      const body =
        e instanceof ApiError ? (e.body as { error?: { conflicts?: { title: string; reason: string; fields: string[] }[] } }) : null;
      setMessage({ text: messageOf(e), conflicts: body?.error?.conflicts });
    }
  };
  const setStatus = (status: 'open' | 'draft' | 'archived') =>
    act(() => api.spaces.updateChangeRequestById(space.id, String(cr.number), { status }));
  const live = cr.status === 'open' || cr.status === 'draft';
  return (
    <div className="page-actions" aria-label="Change request actions" role="group">
      <p className="meta">
        Opened by {cr.createdBy.displayName}
        {cr.mergedBy ? `; merged by ${cr.mergedBy.displayName}` : ''}.
      </p>
      {space.permissions.edit && live ? <Subject data={props.data} onChange={props.onChange} /> : null}
      {space.permissions.edit && cr.status === 'draft' ? (
        <button type="button" onClick={() => setStatus('open')}>
          Ready for review
        </button>
      ) : null}
      {space.permissions.merge && live ? (
        <button type="submit" onClick={() => act(() => call('POST', `/spaces/${space.id}/change-requests/${cr.number}/merge`))}>
          Merge
        </button>
      ) : null}
      {space.permissions.edit && live ? (
        <button type="button" onClick={() => setStatus('archived')}>
          Archive
        </button>
      ) : null}
      {space.permissions.edit && cr.status === 'archived' ? (
        <button type="button" onClick={() => setStatus('open')}>
          Reopen
        </button>
      ) : null}
      {cr.status === 'merged' ? (
        <p role="status">
          Merged. <Link to={`/s/${space.id}`}>Open the space</Link>
        </p>
      ) : null}
      {message ? (
        <div className="error" role="alert">
          <p>{message.text}</p>
          {message.conflicts?.length ? (
            <ul>
              {message.conflicts.map((c, i) => (
                <li key={i}>
                  “{c.title}” {CONFLICT_REASONS[c.reason] ?? c.reason}
                  {c.fields.length ? ` (${c.fields.join(', ')})` : ''}.
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Reviews(props: { data: Loaded; reviews: Review[]; onChange: () => void }) {
  const { space, cr } = props.data;
  const [error, setError] = useState<string | null>(null);
  const current = props.reviews.filter((r) => !r.outdated);
  return (
    <>
      {current.length ? (
        <ul className="reviews">
          {current.map((r) => (
            <li key={r.id}>
              {r.reviewer.displayName}: {r.status === 'approved' ? 'approved' : 'requested changes'}
            </li>
          ))}
        </ul>
      ) : (
        <p>No review yet.</p>
      )}
      {space.permissions.review && cr.status === 'open' ? (
        <form
          className="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const status = new FormData(e.currentTarget).get('status') as 'approved' | 'changes-requested';
            try {
              await api.spaces.submitChangeRequestReview(space.id, String(cr.number), { status: status as never });
              setError(null);
              props.onChange();
            } catch (err) {
              setError(messageOf(err));
            }
          }}
        >
          <fieldset>
            <legend>Your review</legend>
            <label>
              <input type="radio" name="status" value="approved" defaultChecked /> Approve
            </label>
            <label>
              <input type="radio" name="status" value="changes-requested" /> Request changes
            </label>
          </fieldset>
          <button type="submit">Submit review</button>
          <ErrorText message={error} />
        </form>
      ) : null}
    </>
  );
}

function Comments(props: { data: Loaded; comments: CommentItem[]; onChange: () => void }) {
  const { space, cr } = props.data;
  return (
    <>
      {props.comments.length ? (
        <ul className="comments">
          {props.comments.map((c) => (
            <li key={c.id}>
              <p className="meta">
                {c.postedBy.displayName} · <time dateTime={c.postedAt}>{new Date(c.postedAt).toLocaleString()}</time>
              </p>
              <p className="comment-body">{c.body.markdown ?? ''}</p>
              <Replies data={props.data} comment={c} />
            </li>
          ))}
        </ul>
      ) : (
        <p>No comment yet.</p>
      )}
      {space.permissions.comment ? (
        <CommentForm
          label="Comment"
          submit="Post comment"
          post={(markdown) => api.spaces.postCommentInChangeRequest(space.id, String(cr.number), { body: { markdown } } as never)}
          onPosted={props.onChange}
        />
      ) : null}
    </>
  );
}

function Replies(props: { data: Loaded; comment: CommentItem }) {
  const { space, cr } = props.data;
  const [version, setVersion] = useState(0);
  const { data } = useLoad(
    async () =>
      props.comment.replies || version
        ? (
            (await api.spaces.listCommentRepliesInChangeRequest(space.id, String(cr.number), props.comment.id, { limit: 100 } as never))
              .data as unknown as {
              items: CommentItem[];
            }
          ).items
        : [],
    [props.comment.id, version],
  );
  return (
    <>
      {data?.length ? (
        <ul className="replies">
          {data.map((r) => (
            <li key={r.id}>
              <p className="meta">{r.postedBy.displayName}</p>
              <p className="comment-body">{r.body.markdown ?? ''}</p>
            </li>
          ))}
        </ul>
      ) : null}
      {space.permissions.comment ? (
        <CommentForm
          label={`Reply to ${props.comment.postedBy.displayName}`}
          submit="Reply"
          post={(markdown) =>
            api.spaces.postCommentReplyInChangeRequest(space.id, String(cr.number), props.comment.id, { body: { markdown } } as never)
          }
          onPosted={() => setVersion((v) => v + 1)}
        />
      ) : null}
    </>
  );
}

function CommentForm(props: { label: string; submit: string; post: (markdown: string) => Promise<unknown>; onPosted: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="comment-form"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await props.post(text);
          setText('');
          setError(null);
          props.onPosted();
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        {props.label}
        <textarea value={text} required rows={2} maxLength={10000} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit">{props.submit}</button>
      <ErrorText message={error} />
    </form>
  );
}

/**
 * The change request's description: read as the site renders it, written as markdown in the page editor's
 * component (the official `updateChangeRequestById`, its description given in Quire's `{markdown}` form).
 */
function Description(props: { data: Loaded; onChange: () => void }) {
  const { space, cr } = props.data;
  const at = `/spaces/${space.id}/change-requests/${cr.number}`;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const { data, error: loadError } = useLoad(
    () => call<{ markdown: string; html: string }>('GET', `${at}/description`),
    [at, cr.updatedAt],
  );
  const { act, error } = useAction(() => {
    setEditing(false);
    props.onChange();
  });
  const editable = space.permissions.edit && (cr.status === 'open' || cr.status === 'draft');
  return (
    <section aria-labelledby="description-heading">
      <h2 id="description-heading">Description</h2>
      {!data ? (
        <Loading error={loadError} />
      ) : editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => call('PATCH', at, { description: { markdown: text ?? data.markdown } }));
          }}
        >
          <Suspense fallback={<p role="status">Loading the editor…</p>}>
            <MarkdownEditor value={data.markdown} label="Markdown of the description" onChange={setText} />
          </Suspense>
          <div className="page-actions">
            <button type="submit">Save description</button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          <ErrorText message={error} />
        </form>
      ) : (
        <>
          {data.html ? <RenderedHtml html={data.html} /> : <p className="hint-text">No description.</p>}
          {editable ? (
            <button
              type="button"
              onClick={() => {
                setText(null);
                setEditing(true);
              }}
            >
              Edit description
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The change request's subject, changed in place (the official `updateChangeRequestById`). */
function Subject(props: { data: Loaded; onChange: () => void }) {
  const { space, cr } = props.data;
  const [subject, setSubject] = useState(cr.subject ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await api.spaces.updateChangeRequestById(space.id, String(cr.number), { subject: subject.trim() });
          setError(null);
          props.onChange();
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        Subject <input value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} />
      </label>
      <button type="submit">Rename</button>
      <ErrorText message={error} />
    </form>
  );
}

interface Requested {
  user: User;
  requestedBy: User;
}

/** Who is asked to review (pending requests), asking someone else, withdrawing a request. */
function RequestReviewers(props: { data: Loaded }) {
  const { space, cr } = props.data;
  const [version, setVersion] = useState(0);
  const { act, error } = useAction(() => setVersion((v) => v + 1));
  const { data } = useLoad(async () => {
    const [requested, members] = await Promise.all([
      call<{ items: Requested[] }>('GET', `/spaces/${space.id}/change-requests/${cr.number}/requested-reviewers?limit=100`),
      api.orgs.listMembersInOrganizationById((space as unknown as { organization: string }).organization, { limit: 1000 }),
    ]);
    const asked = new Set(requested.items.map((r) => r.user.id));
    // Those who may review (the review role and above), not the author, not asked yet.
    const can = new Set(['admin', 'create', 'review']);
    const candidates = (members.data.items as { user: User; role?: string | null }[]).filter(
      (m) => m.role && can.has(m.role) && m.user.id !== cr.createdBy.id && !asked.has(m.user.id),
    );
    return { requested: requested.items, candidates };
  }, [space.id, cr.number, version]);
  if (!data) return null;
  return (
    <>
      {data.requested.length ? (
        <ul className="reviews" aria-label="Asked to review">
          {data.requested.map((r) => (
            <li key={r.user.id}>
              {r.user.displayName}: asked by {r.requestedBy.displayName}{' '}
              <button
                type="button"
                onClick={() =>
                  act(() => call('DELETE', `/spaces/${space.id}/change-requests/${cr.number}/requested-reviewers/${r.user.id}`))
                }
              >
                Withdraw the request to {r.user.displayName}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {data.candidates.length ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const user = new FormData(e.currentTarget).get('reviewer') as string;
            void act(() => api.spaces.requestReviewersForChangeRequest(space.id, String(cr.number), { users: [user] }));
          }}
        >
          <label>
            Ask to review{' '}
            <select name="reviewer">
              {data.candidates.map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.user.displayName}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Request review</button>
        </form>
      ) : null}
      <ErrorText message={error} />
    </>
  );
}
