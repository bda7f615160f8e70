import { Leaderboard } from './protocols/debate/Leaderboard.tsx';
import { ResultsPage } from './protocols/debate/ResultsPage.tsx';
import { RoomSwitch } from './protocols/debate/RoomSwitch.tsx';
import { Link, match, useLocation } from './lib/router.tsx';
import { getSession, setSession, useCredentials } from './lib/session.ts';
import { Journal } from './pages/Journal.tsx';
import { Lobby } from './pages/Lobby.tsx';
import { Login } from './pages/Login.tsx';
import { pokerPage } from './protocols/poker/routes.tsx';

function Page(props: { path: string }) {
  const { path } = props;
  if (path === '/' || path === '/rooms') return <Lobby />;
  if (path === '/login') return <Login />;
  if (path === '/leaderboard') return <Leaderboard />;
  const poker = pokerPage(path);
  if (poker) return poker;
  let m = match('/rooms/:id/journal', path);
  if (m) return <Journal key={m.id} roomId={m.id!} />;
  m = match('/rooms/:id/results', path);
  if (m) return <ResultsPage key={m.id} roomId={m.id!} />;
  m = match('/rooms/:id/join', path) ?? match('/rooms/:id', path);
  // A debate room gets the debate UI; other protocols the generic room.
  if (m) return <RoomSwitch key={m.id} roomId={m.id!} />;
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
          <Link href="/leaderboard">Leaderboard</Link>
          <Link href="/tables">Tables</Link>
          {session?.role === 'admin' && <Link href="/admin/tables">Admin</Link>}
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
        <Page path={path} />
      </main>
    </>
  );
}
