import { useEffect, useState } from 'react';
import type { Space as SpaceObject } from '@gitbook/api';
import { api, ApiError, call, messageOf } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';
import { StatusText } from '../ui';

interface GitState {
  url?: string;
  ref?: string;
  repoProjectDirectory?: string;
  repoName?: string;
  installationStatus: string;
  operation?: { state: string; direction: string; startedAt: string; endedAt?: string; error?: string };
  webhook?: { url: string; secret: string };
}

/**
 * A space's Git Sync (`/s/{space}/~/git`): its repository and branch, the last operation and its error, an import
 * or export now (the official `importGitRepository` and `exportToGitRepository`; credentials in the URL are kept
 * sealed, and left out they stay as they were for the same repository). While an operation runs, the screen
 * reads `git/info` again every second, until it ends.
 */
export function GitSync(props: { space: string }) {
  const { data, error } = useLoad(async () => {
    const space = (await api.spaces.getSpaceById(props.space)).data as SpaceObject;
    const git = await call<GitState>('GET', `/spaces/${props.space}/git/info`).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    });
    return { space, git };
  }, [props.space]);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // While an operation runs, its state is read again every second into its own state: the screen (and what is
  // typed in its form) stays as it is; only the operation's line changes.
  const [live, setLive] = useState<GitState | null>(null);
  useEffect(() => setLive(null), [data]);
  const git = live ?? data?.git ?? null;
  const running = git?.operation?.state === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(
      () =>
        void call<GitState>('GET', `/spaces/${props.space}/git/info`).then(
          (next) => setLive({ ...next }),
          () => setLive((g) => (g ? { ...g } : g)),
        ),
      1000,
    );
    return () => clearTimeout(timer);
  }, [running, git, props.space]);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Git Sync</h1>
        <Loading error={error} />
      </>
    );
  const op = git?.operation;
  return (
    <>
      <p className="crumbs">
        <Link to={`/s/${props.space}`}>{data.space.title}</Link>
      </p>
      <h1 tabIndex={-1}>Git Sync</h1>
      {git ? (
        <>
          <p>
            Connected to <code>{git.url ?? git.repoName}</code>
            {git.ref ? (
              <>
                , branch <code>{git.ref.replace(/^refs\/heads\//, '')}</code>
              </>
            ) : null}
            {git.repoProjectDirectory ? (
              <>
                , folder <code>{git.repoProjectDirectory}</code>
              </>
            ) : null}{' '}
            <span className="meta">({git.installationStatus})</span>
          </p>
          {op ? (
            <p
              role={op.state === 'failure' || op.state === 'timeout' ? 'alert' : 'status'}
              className={op.state === 'failure' || op.state === 'timeout' ? 'error' : undefined}
            >
              Last {op.direction}: {op.state === 'running' ? 'running…' : op.state}, started{' '}
              <time dateTime={op.startedAt}>{new Date(op.startedAt).toLocaleString()}</time>
              {op.error ? ` — ${op.error}` : ''}
            </p>
          ) : null}
          {git.webhook ? (
            <p className="meta">
              Push webhook: <code className="secret">{git.webhook.url}</code> (its secret is in the API's <code>git/info</code>)
            </p>
          ) : null}
        </>
      ) : (
        <p>This space is not connected to a repository.</p>
      )}
      {data.space.permissions.edit ? (
        <form
          className="narrow-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            const form = new FormData(e.currentTarget);
            const folder = (form.get('folder') as string).trim();
            const body = {
              url: (form.get('url') as string).trim(),
              ref: `refs/heads/${(form.get('branch') as string).trim()}`,
              ...(folder ? { repoProjectDirectory: folder } : {}),
            };
            const direction = submitter?.value === 'import' ? 'import' : 'export';
            try {
              await call(
                'POST',
                `/spaces/${props.space}/git/${direction}`,
                direction === 'export' ? { ...body, commitMessage: (form.get('message') as string).trim() || 'Export from Quire' } : body,
              );
              setStatus({ ok: true, text: `The ${direction} is under way.` });
              setLive(await call<GitState>('GET', `/spaces/${props.space}/git/info`));
            } catch (err) {
              setStatus({ ok: false, text: messageOf(err) });
            }
          }}
        >
          <label htmlFor="git-url">Repository URL (https; a token in it is kept sealed)</label>
          <input id="git-url" name="url" type="url" required maxLength={2048} defaultValue={git?.url ?? ''} />
          <label htmlFor="git-branch">Branch</label>
          <input id="git-branch" name="branch" required maxLength={200} defaultValue={git?.ref?.replace(/^refs\/heads\//, '') ?? 'main'} />
          <label htmlFor="git-folder">Folder in the repository (empty: the top)</label>
          <input id="git-folder" name="folder" maxLength={500} defaultValue={git?.repoProjectDirectory ?? ''} />
          <label htmlFor="git-message">Commit message (export)</label>
          <input id="git-message" name="message" maxLength={10000} defaultValue="Export from Quire" />
          <div className="page-actions">
            <button type="submit" value="export">
              Export now
            </button>
            <button type="submit" value="import">
              Import now
            </button>
          </div>
          <StatusText status={status} />
        </form>
      ) : null}
    </>
  );
}
