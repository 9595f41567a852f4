import { useEffect, useState } from 'react';

/** The app's base path (Vite's `base`, `/app/`), without its trailing slash. */
export const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

/** The path below the app's base (`/o/abc`), from the location. */
export function currentPath(): string {
  const path = window.location.pathname;
  return path.startsWith(BASE) ? path.slice(BASE.length) || '/' : '/';
}

const listeners = new Set<() => void>();

/** Goes to a path of the app (history entry, no reload). */
export function navigate(path: string, replace = false): void {
  const url = `${BASE}${path}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const l of listeners) l();
}

/** A query parameter of the current address (`?mode=edit`). */
export function queryParam(name: string): string | null {
  return new URLSearchParams(window.location.search).get(name);
}

/** The current path, re-rendered on navigation (links, back and forward; a change of the query alone too). */
export function usePath(): string {
  const [, setAddress] = useState(() => window.location.pathname + window.location.search);
  const path = currentPath();
  useEffect(() => {
    const update = () => setAddress(window.location.pathname + window.location.search);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** A link within the app: a real `<a href>` (it opens in a new tab too), followed without a reload. */
export function Link(props: { to: string; children: React.ReactNode; className?: string }) {
  return (
    <a
      href={`${BASE}${props.to}`}
      className={props.className}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
