import { useRef, useState } from 'react';
import type { ShareLink, Site } from '@gitbook/api';
import { api, call, messageOf } from '../api';
import { Link } from '../router';
import { Loading, useLoad } from './organizations';
import { ErrorText, StatusText, useAction } from '../ui';

type SiteWithUrls = Site & { urls: { app: string; published?: string; location: string } };

/** An organization's sites, each with whether it is published. */
export function Sites(props: { org: string }) {
  const { data, error } = useLoad(async () => {
    const [org, sites] = await Promise.all([api.orgs.getOrganizationById(props.org), api.orgs.listSites(props.org, { limit: 100 })]);
    return { title: org.data.title, sites: sites.data.items as SiteWithUrls[] };
  }, [props.org]);
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}`}>{data?.title ?? 'Organization'}</Link>
      </p>
      <h1 tabIndex={-1}>Sites</h1>
      {data ? (
        data.sites.length ? (
          <ul className="change-requests">
            {data.sites.map((s) => (
              <li key={s.id}>
                <Link to={`/o/${props.org}/sites/${s.id}`}>{s.title}</Link>{' '}
                <span className="meta">{s.published ? 'published' : 'not published'}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>No site yet.</p>
        )
      ) : (
        <Loading error={error} />
      )}
    </>
  );
}

/** A site (its `urls.app`): publish or unpublish, its visitor URL, share links, and the basics of its look. */
export function SiteScreen(props: { org: string; site: string }) {
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const { data, error } = useLoad(async () => {
    const site = (await api.orgs.getSiteById(props.org, props.site)).data as SiteWithUrls;
    const links = site.permissions.admin
      ? ((await api.orgs.listSiteShareLinks(props.org, props.site, { limit: 100 })).data.items as ShareLink[])
      : [];
    return { site, links };
  }, [props.org, props.site, version]);
  const { act, error: message } = useAction(reload);
  if (!data)
    return (
      <>
        <h1 tabIndex={-1}>Site</h1>
        <Loading error={error} />
      </>
    );
  const { site } = data;
  return (
    <>
      <p className="crumbs">
        <Link to={`/o/${props.org}`}>Organization</Link> · <Link to={`/o/${props.org}/sites`}>Sites</Link>
      </p>
      <h1 tabIndex={-1}>{site.title}</h1>
      <div className="page-actions" role="group" aria-label="Publishing">
        <p>
          <span className={`status ${site.published ? 'status-merged' : ''}`}>{site.published ? 'published' : 'not published'}</span>{' '}
          <span className="meta">
            {site.visibility}, {site.siteSpaces} space{site.siteSpaces === 1 ? '' : 's'}
          </span>
        </p>
        {site.published && site.urls.published ? (
          <a href={site.urls.published} className="button-link">
            Open the published site
          </a>
        ) : null}
        <Link to={`/o/${props.org}/sites/${props.site}/insights`} className="button-link">
          Insights
        </Link>
        {site.permissions.admin ? (
          site.published ? (
            <button type="button" onClick={() => act(() => api.orgs.unpublishSite(props.org, props.site))}>
              Unpublish
            </button>
          ) : (
            <button type="submit" onClick={() => act(() => api.orgs.publishSite(props.org, props.site))}>
              Publish
            </button>
          )
        ) : null}
        <ErrorText message={message} />
      </div>
      {site.permissions.admin ? (
        <>
          <h2>Share links</h2>
          <ShareLinks org={props.org} site={props.site} links={data.links} onChange={reload} />
          <h2>Look</h2>
          <Customization org={props.org} site={props.site} />
        </>
      ) : null}
    </>
  );
}

function ShareLinks(props: { org: string; site: string; links: ShareLink[]; onChange: () => void }) {
  const [name, setName] = useState('');
  const { act, error } = useAction(props.onChange);
  return (
    <>
      {props.links.length ? (
        <table className="sessions">
          <caption className="visually-hidden">Share links</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Link</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.links.map((l) => (
              <tr key={l.id}>
                <td>{l.name ?? ''}</td>
                <td>{l.urls.published ? <code className="secret">{l.urls.published}</code> : '—'}</td>
                <td>{l.active === false ? 'off' : 'on'}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => act(() => api.orgs.updateSiteShareLinkById(props.org, props.site, l.id, { active: l.active === false }))}
                  >
                    {l.active === false ? `Turn on ${l.name ?? 'link'}` : `Turn off ${l.name ?? 'link'}`}
                  </button>{' '}
                  <button
                    type="button"
                    className="danger"
                    onClick={() => act(() => api.orgs.deleteSiteShareLinkById(props.org, props.site, l.id))}
                  >
                    Delete {l.name ?? 'link'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No share link. A share link lets someone without an account read the site while its visibility is "share link".</p>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await api.orgs.createSiteShareLink(props.org, props.site, { name: name.trim() });
            setName('');
          });
        }}
      >
        <label>
          Share link name <input value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Make a share link</button>
      </form>
      <ErrorText message={error} />
    </>
  );
}

type Customization = {
  title?: string;
  updatedAt?: string;
  styling: { tint?: { color: { light: string; dark: string } } } & Record<string, unknown>;
  header: { logo?: { light: string; dark?: string } } & Record<string, unknown>;
} & Record<string, unknown>;

/** The basics of the site's look: its title, its logo (a URL, or an image uploaded) and its tint, written with the official PUT (whole settings). */
function Customization(props: { org: string; site: string }) {
  const [version, setVersion] = useState(0);
  const { data, error } = useLoad(
    async () => (await api.orgs.getSiteCustomizationById(props.org, props.site)).data as unknown as Customization,
    [props.org, props.site, version],
  );
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const logoField = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<{ ok: boolean; text: string } | null>(null);
  // An image uploaded as the logo: an upload URL (the official generateStorageUploadURL), its bytes PUT there,
  // and the file's URL put in the logo field, saved with the rest.
  const upload = async (file: File) => {
    setUploading({ ok: true, text: `Uploading ${file.name}…` });
    try {
      const target = await call<{ url: string }>('POST', `/orgs/${props.org}/storage/upload`, {
        file: { name: file.name, type: file.type, size: file.size },
        kind: 'organization_file',
      });
      const res = await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': file.type }, body: file });
      const body = (await res.json()) as { url?: string; error?: { message: string } };
      if (!res.ok || !body.url) throw new Error(body.error?.message ?? `The upload failed (${res.status})`);
      logoField.current!.value = body.url;
      setUploading({ ok: true, text: `${file.name} uploaded: save the look to use it.` });
    } catch (err) {
      setUploading({ ok: false, text: messageOf(err) });
    }
  };
  if (!data) return <Loading error={error} />;
  return (
    <form
      className="narrow-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const title = (form.get('title') as string).trim();
        const logo = (form.get('logo') as string).trim();
        const tint = form.get('tint-on') ? (form.get('tint') as string) : null;
        const { updatedAt: _updatedAt, ...settings } = data;
        const next: Customization = {
          ...settings,
          title: title || undefined,
          // What was not changed is kept as it was (a dark tint or a dark logo set through the API stays).
          styling: {
            ...settings.styling,
            tint: !tint
              ? undefined
              : tint === settings.styling.tint?.color.light
                ? settings.styling.tint
                : { color: { light: tint, dark: tint } },
          },
          header: {
            ...settings.header,
            logo: !logo ? undefined : logo === settings.header.logo?.light ? settings.header.logo : { light: logo, dark: logo },
          },
        };
        try {
          await api.orgs.updateSiteCustomizationById(props.org, props.site, JSON.parse(JSON.stringify(next)));
          setStatus({ ok: true, text: 'Saved: the published site shows it now.' });
          setVersion((v) => v + 1);
        } catch (err) {
          setStatus({ ok: false, text: messageOf(err) });
        }
      }}
    >
      <label htmlFor="site-title">Title</label>
      <input id="site-title" name="title" defaultValue={data.title ?? ''} maxLength={128} />
      <label htmlFor="site-logo">Logo (the URL of an image)</label>
      <input id="site-logo" name="logo" type="url" ref={logoField} defaultValue={data.header.logo?.light ?? ''} maxLength={2048} />
      <label htmlFor="site-logo-file">Or upload an image (PNG, JPEG, GIF, WebP, AVIF, SVG or ICO; 2 MB at most)</label>
      <input
        id="site-logo-file"
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml,image/x-icon"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      <StatusText status={uploading} />
      <label>
        <input type="checkbox" name="tint-on" defaultChecked={Boolean(data.styling.tint)} /> Tint the site with a colour
      </label>
      <label htmlFor="site-tint">Tint colour</label>
      <input id="site-tint" name="tint" type="color" defaultValue={data.styling.tint?.color.light ?? '#346ddb'} />
      <button type="submit">Save the look</button>
      <StatusText status={status} />
    </form>
  );
}
