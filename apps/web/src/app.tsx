import { useEffect, useRef, useState } from 'react';
import { call, currentSession, remember, type SignedIn } from './api';
import { Link, navigate, usePath } from './router';
import { SignIn, SignInWithLink } from './screens/sign-in';
import { Home, Organization } from './screens/organizations';
import { Revision, Revisions, Space } from './screens/space';
import { Sites, SiteScreen } from './screens/sites';
import { Insights } from './screens/insights';
import { GitSync } from './screens/git-sync';
import { Collection, IssuesCluster, OpenApiSpec } from './screens/org-objects';
import { Sessions } from './screens/sessions';
import { Settings } from './screens/settings';
import { Join, Members } from './screens/members';
import { ChangeRequests, ChangeRequestScreen } from './screens/change-requests';

/** The screens, by path (each has a stable URL: every `urls.app` the API returns opens its screen). */
function route(path: string): { title: string; screen: (user: SignedIn) => React.ReactNode } | null {
  let m: RegExpExecArray | null;
  if (path === '/' || path === '') return { title: 'Your organizations', screen: () => <Home /> };
  if ((m = /^\/o\/([\w-]+)\/?$/.exec(path))) return { title: 'Organization', screen: () => <Organization id={m![1]} /> };
  if ((m = /^\/o\/([\w-]+)\/members\/?$/.exec(path)))
    return { title: 'Members and teams', screen: (u) => <Members org={m![1]} user={u} /> };
  if ((m = /^\/o\/([\w-]+)\/join\/([\w-]+)\/?$/.exec(path)))
    return { title: 'Join an organization', screen: () => <Join org={m![1]} invite={m![2]} /> };
  if ((m = /^\/o\/([\w-]+)\/sites\/?$/.exec(path))) return { title: 'Sites', screen: () => <Sites org={m![1]} /> };
  if ((m = /^\/o\/([\w-]+)\/sites\/([\w-]+)\/?$/.exec(path)))
    return { title: 'Site', screen: () => <SiteScreen org={m![1]} site={m![2]} /> };
  if ((m = /^\/o\/([\w-]+)\/sites\/([\w-]+)\/insights\/?$/.exec(path)))
    return { title: 'Site insights', screen: () => <Insights org={m![1]} site={m![2]} /> };
  if ((m = /^\/o\/([\w-]+)\/openapi\/([\w.-]+)\/?$/.exec(path)))
    return { title: 'OpenAPI specification', screen: () => <OpenApiSpec org={m![1]} slug={m![2]} /> };
  if ((m = /^\/o\/([\w-]+)\/insights\/clusters\/([\w-]+)\/?$/.exec(path)))
    return { title: 'Issues cluster', screen: () => <IssuesCluster org={m![1]} id={m![2]} /> };
  if ((m = /^\/c\/([\w-]+)\/?$/.exec(path))) return { title: 'Collection', screen: () => <Collection id={m![1]} /> };
  if ((m = /^\/s\/([\w-]+)\/~\/changes\/?$/.exec(path)))
    return { title: 'Change requests', screen: () => <ChangeRequests space={m![1]} /> };
  if ((m = /^\/s\/([\w-]+)\/~\/changes\/(\d{1,9})(?:\/(.*))?$/.exec(path)))
    return {
      title: `Change request #${m[2]}`,
      screen: () => <ChangeRequestScreen space={m![1]} number={m![2]} path={(m![3] ?? '').replace(/\/$/, '')} />,
    };
  if ((m = /^\/s\/([\w-]+)\/~\/revisions\/?$/.exec(path))) return { title: 'History', screen: () => <Revisions space={m![1]} /> };
  if ((m = /^\/s\/([\w-]+)\/~\/revisions\/([\w-]+)(?:\/(.*))?$/.exec(path)))
    return { title: 'Revision', screen: () => <Revision space={m![1]} revision={m![2]} path={(m![3] ?? '').replace(/\/$/, '')} /> };
  if ((m = /^\/s\/([\w-]+)\/~\/git\/?$/.exec(path))) return { title: 'Git Sync', screen: () => <GitSync space={m![1]} /> };
  if (/^\/s\/[\w-]+\/~\//.test(path)) return null;
  if ((m = /^\/s\/([\w-]+)(?:\/(.*))?$/.exec(path))) return { title: 'Space', screen: () => <Space id={m![1]} path={m![2] ?? ''} /> };
  if (path === '/settings/sessions') return { title: 'Signed-in sessions', screen: (u) => <Sessions user={u} /> };
  if (path === '/settings') return { title: 'Settings', screen: () => <Settings /> };
  return null;
}

export function App() {
  const path = usePath();
  const [user, setUser] = useState<SignedIn | null | undefined>(undefined);
  const main = useRef<HTMLElement>(null);

  // A sign-in (a link, a password) may end before the session is first asked: then its answer stands.
  const signedIn = useRef(false);
  const signIn = (s: SignedIn) => {
    signedIn.current = true;
    remember(s);
    setUser(s);
  };
  useEffect(() => {
    currentSession().then(
      (s) => {
        if (signedIn.current) return;
        remember(s);
        setUser(s);
      },
      () => signedIn.current || setUser(null),
    );
  }, []);

  // A new screen: the focus goes to its heading (a screen reader says where it is), as a page load would.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path, user]);

  if (path === '/sign-in/link')
    return (
      <Frame user={null} mainRef={main}>
        <SignInWithLink
          onSignedIn={(s) => {
            signIn(s);
            navigate('/', true);
          }}
        />
      </Frame>
    );
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (user === null || path === '/sign-in')
    return (
      <Frame user={null} mainRef={main}>
        <SignIn
          onSignedIn={(s) => {
            signIn(s);
            const next = new URLSearchParams(window.location.search).get('next');
            navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : path === '/sign-in' ? '/' : path, true);
          }}
        />
      </Frame>
    );
  const found = route(path);
  document.title = `${found?.title ?? 'Not found'} · Quire`;
  return (
    <Frame
      user={user}
      mainRef={main}
      onSignOut={async () => {
        await call('POST', '/auth/sign-out');
        signedIn.current = false;
        remember(null);
        setUser(null);
        navigate('/sign-in', true);
      }}
    >
      {found ? (
        found.screen(user)
      ) : (
        <>
          <h1 tabIndex={-1}>Not found</h1>
          <p>
            Nothing of Quire is at this address. <Link to="/">Your organizations</Link>
          </p>
        </>
      )}
    </Frame>
  );
}

function Frame(props: {
  user: SignedIn | null;
  mainRef: React.RefObject<HTMLElement | null>;
  onSignOut?: () => void;
  children: React.ReactNode;
}) {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Quire
        </Link>
        {props.user ? (
          <nav aria-label="Account">
            <span className="who">{props.user.displayName || props.user.email}</span>
            <Link to="/settings">Settings</Link>
            <Link to="/settings/sessions">Sessions</Link>
            <button type="button" onClick={props.onSignOut}>
              Sign out
            </button>
          </nav>
        ) : null}
      </header>
      <main id="main" ref={props.mainRef}>
        {props.children}
      </main>
    </>
  );
}
