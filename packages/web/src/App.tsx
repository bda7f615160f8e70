import { QueryClientProvider } from '@tanstack/react-query';
import {
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useLocation,
  useParams,
} from '@tanstack/react-router';
import { type ReactNode, Suspense, useState } from 'react';
import { api } from './lib/api.ts';
import { createQueryClient } from './lib/query.ts';
import { signInHref } from './lib/return-path.ts';
import { Link, searchCodec } from './lib/router.tsx';
import { dismissEnded, getSession, sessionEnded, setSession, useCredentials } from './lib/session.ts';
import { Login } from './pages/Login.tsx';
import { lazyPage, ModuleScope, type WebModule } from './protocols/module.tsx';
import { webModules } from './protocols/registry.ts';

// Pages load with their route, not with the shell: the lobby's create form carries every protocol's
// rules (their config schemas and validators), which the top bar and the other pages do not need.
const Lobby = lazyPage(() => import('./pages/Lobby.tsx').then((m) => m.Lobby));
const RoomPage = lazyPage(() => import('./pages/RoomPage.tsx').then((m) => m.RoomPage));
const Journal = lazyPage(() => import('./pages/Journal.tsx').then((m) => m.Journal));
const AdminRooms = lazyPage(() => import('./pages/AdminRooms.tsx').then((m) => m.AdminRooms));
const Agents = lazyPage(() => import('./pages/Agents.tsx').then((m) => m.Agents));
const AgentProfile = lazyPage(() => import('./pages/AgentProfile.tsx').then((m) => m.AgentProfile));
const SignIn = lazyPage(() => import('./pages/SignIn.tsx').then((m) => m.SignIn));
const SignInCallback = lazyPage(() => import('./pages/SignIn.tsx').then((m) => m.SignInCallback));

// The shell (top bar and the page for the path) and its routes, built in code once the composition
// root has installed the protocol modules: each module's routes join the tree, so the shell never
// names a protocol. The router ranks static segments above params, so a module's `/rooms/$id/results`
// and the generic `/rooms/$id/journal` do not collide.

function NotFound() {
  const { pathname } = useLocation();
  return (
    <section className="card narrow">
      <h1>Not found</h1>
      <p>
        Nothing at <code>{pathname}</code>. <Link to="/">Go to the rooms</Link>.
      </p>
    </section>
  );
}

/** Ends the session on the server too (best effort: a dead server must not keep anyone signed in here). */
function signOut(): void {
  void api.logout().catch(() => {});
  setSession(null);
}

/** Said once the person's session ended without their signing out (expired, or refused by the server). */
function SessionEnded({ back }: { back: string }) {
  return (
    <p className="notice" role="status" data-testid="session-ended">
      Your session ended — <Link to={signInHref(back)}>sign in again</Link>.{' '}
      <button type="button" className="ghost" onClick={dismissEnded}>
        Dismiss
      </button>
    </p>
  );
}

function Shell() {
  useCredentials();
  const session = getSession();
  const { pathname, searchStr } = useLocation();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          db8
        </Link>
        <nav aria-label="main">
          <Link to="/">Rooms</Link>
          <Link to="/agents">Agents</Link>
          {session?.role === 'admin' ? <Link to="/admin/rooms">Monitor</Link> : null}
          {webModules()
            .flatMap((mod) => mod.nav ?? [])
            .filter((l) => !l.admin || session?.role === 'admin')
            .map((l) => (
              <Link key={l.href} to={l.href}>
                {l.label}
              </Link>
            ))}
          <a href="/skill.md">Skill doc</a>
        </nav>
        <div className="who small">
          {session ? (
            <>
              {session.name ? <span data-testid="signed-in-as">{session.name}</span> : null}{' '}
              <span className="mono" title={session.principal}>
                {session.role}
              </span>{' '}
              <button type="button" className="ghost" onClick={signOut}>
                Sign out
              </button>
            </>
          ) : pathname.startsWith('/signin') ? (
            <span className="muted">not signed in</span>
          ) : (
            <Link to={signInHref(`${pathname}${searchStr}`)}>Sign in</Link>
          )}
        </div>
      </header>
      {!session && sessionEnded() && !pathname.startsWith('/signin') ? (
        <SessionEnded back={`${pathname}${searchStr}`} />
      ) : null}
      <main id="main">
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}

/** A page keyed by its `$id`, so moving between rooms mounts a fresh page. */
function ById(props: { render: (id: string) => ReactNode }) {
  const { id } = useParams({ strict: false }) as { id: string };
  return <>{props.render(id)}</>;
}

function ModulePage(props: { mod: WebModule; page: (params: Record<string, string>) => ReactNode }) {
  const params = useParams({ strict: false }) as Record<string, string>;
  return <ModuleScope module={props.mod}>{props.page(params)}</ModuleScope>;
}

function createAppRouter() {
  const root = createRootRoute({ component: Shell, notFoundComponent: NotFound });
  const at = (path: string, component: () => ReactNode) =>
    createRoute({ getParentRoute: () => root, path, component });
  const routes = [
    at('/', () => <Lobby />),
    at('/rooms', () => <Lobby />),
    at('/login', () => <Login />),
    at('/signin', () => <SignIn />),
    at('/signin/callback', () => <SignInCallback />),
    at('/admin/rooms', () => <AdminRooms />),
    at('/agents', () => <Agents />),
    at('/agents/$id', () => <ById render={(id) => <AgentProfile key={id} id={id} />} />),
    ...webModules().flatMap((mod) =>
      (mod.routes ?? []).map((r) => at(r.path, () => <ModulePage mod={mod} page={r.page} />)),
    ),
    at('/rooms/$id/journal', () => <ById render={(id) => <Journal key={id} roomId={id} />} />),
    at('/rooms/$id/join', () => <ById render={(id) => <RoomPage key={id} roomId={id} />} />),
    at('/rooms/$id', () => <ById render={(id) => <RoomPage key={id} roomId={id} />} />),
  ];
  return createRouter({ routeTree: root.addChildren(routes), ...searchCodec });
}

export function App() {
  // Built on first render: by then the composition root has installed the modules (main.tsx).
  const [router] = useState(createAppRouter);
  // The one cache of REST reads (lib/query.ts): pages and modules reach it through the kit.
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
