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

/** The current path, re-rendered on navigation (links, back and forward). */
export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
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
