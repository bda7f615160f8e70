import { type ReactNode, Suspense } from 'react';
import { Link, match, useLocation } from './lib/router.tsx';
import { getSession, setSession, useCredentials } from './lib/session.ts';
import { Login } from './pages/Login.tsx';
import { lazyPage, ModuleScope } from './protocols/module.tsx';
import { webModules } from './protocols/registry.ts';

// Pages load with their route, not with the shell: the lobby's create form carries every protocol's
// rules (their config schemas and validators), which the top bar and the other pages do not need.
const Lobby = lazyPage(() => import('./pages/Lobby.tsx').then((m) => m.Lobby));
const RoomPage = lazyPage(() => import('./pages/RoomPage.tsx').then((m) => m.RoomPage));
const Journal = lazyPage(() => import('./pages/Journal.tsx').then((m) => m.Journal));
const AdminRooms = lazyPage(() => import('./pages/AdminRooms.tsx').then((m) => m.AdminRooms));

// The shell: top bar and the page for the path. Protocol modules add their pages and nav links
// through the registry; the shell never names a protocol.

/** A module's page for this path, inside the module's style scope, or null. */
function modulePage(path: string): ReactNode | null {
  for (const mod of webModules()) {
    for (const route of mod.routes ?? []) {
      const params = match(route.path, path);
      if (params) return <ModuleScope module={mod}>{route.page(params)}</ModuleScope>;
    }
  }
  return null;
}

function Page(props: { path: string }) {
  const { path } = props;
  if (path === '/' || path === '/rooms') return <Lobby />;
  if (path === '/login') return <Login />;
  if (path === '/admin/rooms') return <AdminRooms />;
  const page = modulePage(path);
  if (page) return page;
  let m = match('/rooms/:id/journal', path);
  if (m) return <Journal key={m.id} roomId={m.id!} />;
  m = match('/rooms/:id/join', path) ?? match('/rooms/:id', path);
  if (m) return <RoomPage key={m.id} roomId={m.id!} />;
  return (
    <section className="card narrow">
      <h1>Not found</h1>
      <p>
        Nothing at <code>{path}</code>. <Link href="/">Go to the rooms</Link>.
      </p>
    </section>
  );
}

export function App() {
  useCredentials();
  const loc = useLocation();
  const path = loc.split('?')[0] ?? '/';
  const session = getSession();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          db8
        </Link>
        <nav aria-label="main">
          <Link href="/">Rooms</Link>
          {session?.role === 'admin' ? <Link href="/admin/rooms">Monitor</Link> : null}
          {webModules()
            .flatMap((mod) => mod.nav ?? [])
            .filter((l) => !l.admin || session?.role === 'admin')
            .map((l) => (
              <Link key={l.href} href={l.href}>
                {l.label}
              </Link>
            ))}
          <a href="/skill.md">Skill doc</a>
        </nav>
        <div className="who small">
          {session ? (
            <>
              <span className="mono" title={session.principal}>
                {session.role}
              </span>{' '}
              <button type="button" className="ghost" onClick={() => setSession(null)}>
                Sign out
              </button>
            </>
          ) : (
            <span className="muted">not signed in</span>
          )}
        </div>
      </header>
      <main id="main">
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Page path={path} />
        </Suspense>
      </main>
    </>
  );
}
