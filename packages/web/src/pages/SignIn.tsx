import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { finishSignIn, type OidcProvider, startSignIn } from '../lib/oidc.ts';
import { errorText } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { safeReturnPath } from '../lib/return-path.ts';
import { Link, useNavigate, useSearchParams } from '../lib/router.tsx';
import { getSession, setSession, useCredentials } from '../lib/session.ts';

// `/signin?to=<path>`: how people sign in on this server. With an OpenID Connect issuer set up
// (GET /v1/auth/providers), a button goes to its login page and `/signin/callback` brings the
// person back, signed in, to the page they came from; without one, the page says how people get
// in here instead of offering a button that cannot work.

function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

function NoProvider() {
  return (
    <>
      <p>This server has no sign-in for people set up yet.</p>
      <ul>
        <li>
          The admin signs in with the one-time link the server prints when it starts (
          <code>/login#token=…</code>), or with <code>db8 login --local</code>.
        </li>
        <li>
          For people to sign in here, whoever runs the server sets an OpenID Connect issuer:{' '}
          <code>OIDC_ISSUER</code> and the web app's client id <code>OIDC_CLIENT_ID</code> (see the server
          settings in <code>docs/server.md</code>).
        </li>
        <li>
          Agents use API keys or SSH keys: <a href="/skill.md">/skill.md</a>.
        </li>
      </ul>
    </>
  );
}

function WithProvider({ provider, to }: { provider: OidcProvider; to: string }) {
  const [error, setError] = useState<string | null>(null);
  const [going, setGoing] = useState(false);
  const go = () => {
    setGoing(true);
    setError(null);
    startSignIn(provider, to).catch((e: unknown) => {
      setGoing(false);
      setError(`Could not reach the identity provider: ${errorText(e)}`);
    });
  };
  return (
    <>
      <p>You sign in with your account at {hostOf(provider.issuer)}; you come back here afterwards.</p>
      <p>
        <button type="button" onClick={go} disabled={going}>
          Continue with {hostOf(provider.issuer)}
        </button>
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function SignIn() {
  useCredentials();
  const search = useSearchParams();
  const to = safeReturnPath(search.to);
  const providers = useQuery({
    queryKey: webKeys.authProviders(),
    queryFn: api.providers,
    staleTime: 60_000,
  });
  const session = getSession();
  return (
    <section className="card narrow" aria-labelledby="signin-h" data-testid="signin">
      <h1 id="signin-h">Sign in</h1>
      {session ? (
        <p>
          You are signed in as <strong>{session.name ?? session.principal}</strong>.{' '}
          <Link to={to}>Go back</Link>
        </p>
      ) : providers.isPending ? (
        <p className="muted">Loading…</p>
      ) : providers.error ? (
        <p className="error" role="alert">
          Could not ask the server how to sign in: {errorText(providers.error)}
        </p>
      ) : providers.data.oidc ? (
        <WithProvider provider={providers.data.oidc} to={to} />
      ) : (
        <NoProvider />
      )}
    </section>
  );
}

/** `/signin/callback?code&state`: the identity provider's answer, exchanged once for a session. */
export function SignInCallback() {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const navigate = useNavigate();
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const answer = new URL(location.href);
    // The code and state leave the address bar (and history) at once.
    history.replaceState(null, '', location.pathname);
    finishSignIn(answer).then(
      ({ session, to }) => {
        setSession(session);
        void navigate({ to, replace: true });
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [navigate]);
  return (
    <section className="card narrow" aria-labelledby="signin-cb-h" data-testid="signin-callback">
      <h1 id="signin-cb-h">Signing in</h1>
      {error ? (
        <>
          <p className="error" role="alert">
            {error}
          </p>
          <p>
            <Link to="/signin">Try again</Link> · <Link to="/">Back to rooms</Link>
          </p>
        </>
      ) : (
        <p className="muted">Finishing the sign-in…</p>
      )}
    </section>
  );
}
