import { useState } from 'react';
import type { OrganizationMember, Team } from '@gitbook/api';
import { api, messageOf, type SignedIn } from '../api';
import { BASE, Link, navigate } from '../router';
import { Loading, useLoad } from './organizations';
import { ErrorText, useAction } from '../ui';

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
/** A role as the select shows it; `guest` is the official `null` role (only what is shared with them). */
type RoleChoice = (typeof ROLES)[number] | 'guest';
const roleOf = (choice: string) => (choice === 'guest' ? null : choice);

interface Invite {
  id: string;
  role: string | null;
}

/**
 * An organization's members (their role, guests too), its teams and its invite links, as the official operations
 * give them. Admins change roles, remove members, make and delete invite links and teams; others read.
 */
export function Members(props: { org: string; user: SignedIn }) {
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const { data, error } = useLoad(async () => {
    const [org, members, teams] = await Promise.all([
      api.orgs.getOrganizationById(props.org),
      api.orgs.listMembersInOrganizationById(props.org, { limit: 1000, sort: 'name', order: 'asc' }),
      api.orgs.listTeamsInOrganizationById(props.org, { limit: 1000 }),
    ]);
    const list = members.data.items as OrganizationMember[];
    const admin = list.find((m) => m.user.id === props.user.user)?.role === 'admin';
    const invites = admin
      ? ((await api.orgs.listOrganizationInviteLinks(props.org, { limit: 100 })).data.items as unknown as Invite[])
      : [];
    return { title: org.data.title, members: list, teams: teams.data.items as (Team & { title?: string })[], admin, invites };
  }, [props.org, version]);
  const { act, error: message } = useAction(reload);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Members and teams</h1>
        <Loading error={error} />
      </>
    );
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}`}>{data.title}</Link>
      </p>
      <h1 tabIndex={-1}>Members and teams</h1>
      <ErrorText message={message} />
      <table className="sessions">
        <caption>Members ({data.members.length})</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            {data.admin ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {data.members.map((m) => (
            <tr key={m.id}>
              <td>{m.user.displayName}</td>
              <td>{m.user.email ?? ''}</td>
              <td>
                {data.admin && m.user.id !== props.user.user ? (
                  <select
                    aria-label={`Role of ${m.user.displayName}`}
                    value={m.role ?? 'guest'}
                    onChange={(e) =>
                      act(() => api.orgs.updateMemberInOrganizationById(props.org, m.user.id, { role: roleOf(e.target.value) as never }))
                    }
                  >
                    {[...ROLES, 'guest'].map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  (m.role ?? 'guest')
                )}
              </td>
              {data.admin ? (
                <td>
                  {m.user.id !== props.user.user ? (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => act(() => api.orgs.removeMemberFromOrganizationById(props.org, m.user.id))}
                    >
                      Remove {m.user.displayName}
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {data.admin ? <InviteLinks org={props.org} invites={data.invites} act={act} /> : null}
      <h2>Teams</h2>
      {data.teams.length ? (
        <ul className="change-requests">
          {data.teams.map((t) => (
            <li key={t.id}>
              {t.title ?? t.id}{' '}
              {data.admin ? (
                <button
                  type="button"
                  className="danger"
                  onClick={() => act(() => api.orgs.removeTeamFromOrganizationById(props.org, t.id))}
                >
                  Delete team {t.title ?? t.id}
                </button>
              ) : null}
              <TeamMembers org={props.org} team={t} members={data.members} admin={data.admin} />
            </li>
          ))}
        </ul>
      ) : (
        <p>No team yet.</p>
      )}
      {data.admin ? <NewTeam org={props.org} members={data.members} act={act} /> : null}
    </>
  );
}

/** A team's members; an admin adds a member of the organization to it, or takes one out. */
function TeamMembers(props: { org: string; team: Team & { title?: string }; members: OrganizationMember[]; admin: boolean }) {
  const [version, setVersion] = useState(0);
  const { act, error } = useAction(() => setVersion((v) => v + 1));
  const { data } = useLoad(
    async () =>
      (
        (await api.orgs.listTeamMembersInOrganizationById(props.org, props.team.id, { limit: 1000 })).data.items as {
          organization: OrganizationMember;
        }[]
      ).map((m) => m.organization.user),
    [props.org, props.team.id, version],
  );
  if (!data) return null;
  const title = props.team.title ?? props.team.id;
  const inTeam = new Set(data.map((u) => u.id));
  const others = props.members.filter((m) => !inTeam.has(m.user.id));
  return (
    <>
      <ul className="replies" aria-label={`Members of ${title}`}>
        {data.map((u) => (
          <li key={u.id}>
            {u.displayName}{' '}
            {props.admin ? (
              <button
                type="button"
                onClick={() => act(() => api.orgs.deleteMemberFromOrganizationTeamById(props.org, props.team.id, u.id))}
              >
                Take {u.displayName} out of {title}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {props.admin && others.length ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const user = new FormData(e.currentTarget).get('user') as string;
            void act(() => api.orgs.addMemberToOrganizationTeamById(props.org, props.team.id, user, {}));
          }}
        >
          <label>
            Add to {title}{' '}
            <select name="user">
              {others.map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.user.displayName}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Add to the team</button>
        </form>
      ) : null}
      <ErrorText message={error} />
    </>
  );
}

function InviteLinks(props: { org: string; invites: Invite[]; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const [role, setRole] = useState<RoleChoice>('read');
  const link = (id: string) => `${window.location.origin}${BASE}/o/${props.org}/join/${id}`;
  return (
    <>
      <h2>Invite links</h2>
      <p className="hint-text">Anyone signed in who opens an invite link joins with its role. Delete a link to stop it.</p>
      {props.invites.length ? (
        <ul className="change-requests">
          {props.invites.map((i) => (
            <li key={i.id}>
              <code className="secret">{link(i.id)}</code> <span className="meta">joins as {i.role ?? 'guest'}</span>{' '}
              <button
                type="button"
                className="danger"
                onClick={() => props.act(() => api.orgs.deleteOrganizationInviteById(props.org, i.id))}
              >
                Delete the {i.role ?? 'guest'} invite link
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void props.act(() => api.orgs.createOrganizationInvite(props.org, { role: roleOf(role) } as never));
        }}
      >
        <label>
          Joins as{' '}
          <select value={role} onChange={(e) => setRole(e.target.value as RoleChoice)}>
            {[...ROLES, 'guest'].map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Make an invite link</button>
      </form>
    </>
  );
}

function NewTeam(props: { org: string; members: OrganizationMember[]; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const [title, setTitle] = useState('');
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        const picked = new FormData(e.currentTarget).getAll('member') as string[];
        void props.act(async () => {
          await api.orgs.createOrganizationTeam(props.org, { title: title.trim(), members: picked });
          setTitle('');
        });
      }}
    >
      <label>
        New team <input value={title} required maxLength={100} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <fieldset>
        <legend>Its members</legend>
        {props.members.map((m) => (
          <label key={m.id}>
            <input type="checkbox" name="member" value={m.user.id} /> {m.user.displayName}
          </label>
        ))}
      </fieldset>
      <button type="submit">Make the team</button>
    </form>
  );
}

/** An invite link (`/o/{org}/join/{invite}`): the signed-in person joins the organization with its role. */
export function Join(props: { org: string; invite: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <h1 tabIndex={-1}>Join an organization</h1>
      <p>This invite link adds you to the organization with the role it names.</p>
      <button
        type="submit"
        onClick={async () => {
          try {
            await api.orgs.joinOrganizationWithInvite(props.org, props.invite);
            navigate(`/o/${props.org}`);
          } catch (e) {
            setError(messageOf(e));
          }
        }}
      >
        Join
      </button>
      <ErrorText message={error} />
    </>
  );
}
