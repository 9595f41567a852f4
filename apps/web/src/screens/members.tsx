import type { OrganizationMember, Team } from '@gitbook/api';
import { api } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';

/** An organization's members (their role, guests too) and teams, as the official list operations give them. */
export function Members(props: { org: string }) {
  const { data, error } = useLoad(async () => {
    const [org, members, teams] = await Promise.all([
      api.orgs.getOrganizationById(props.org),
      api.orgs.listMembersInOrganizationById(props.org, { limit: 1000, sort: 'name', order: 'asc' }),
      api.orgs.listTeamsInOrganizationById(props.org, { limit: 1000 }),
    ]);
    return {
      title: org.data.title,
      members: members.data.items as OrganizationMember[],
      teams: teams.data.items as (Team & { title?: string })[],
    };
  }, [props.org]);
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
      <table className="sessions">
        <caption>Members ({data.members.length})</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {data.members.map((m) => (
            <tr key={m.id}>
              <td>{m.user.displayName}</td>
              <td>{m.user.email ?? ''}</td>
              <td>{m.role ?? 'guest'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Teams</h2>
      {data.teams.length ? (
        <ul>
          {data.teams.map((t) => (
            <li key={t.id}>{t.title ?? t.id}</li>
          ))}
        </ul>
      ) : (
        <p>No team yet.</p>
      )}
    </>
  );
}
