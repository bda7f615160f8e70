import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { Link, useNavigate } from '../lib/router.tsx';
import { setSession } from '../lib/session.ts';

// The one-time admin link is `/login#token=…`: the fragment never reaches the server's access log.
// It is exchanged once for an admin session, then removed from the address bar.

export function Login() {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const navigate = useNavigate();
  // The exchange is a write (it spends the link), so a mutation: never retried, never cached.
  const login = useMutation({
    mutationFn: api.login,
    onSuccess: (s) => {
      setSession(s);
      void navigate({ to: '/', replace: true });
    },
    onError: (e: Error) =>
      setError(`Login failed: ${e.message}. Links work once; restart the server for a new one.`),
  });
  const { mutate } = login;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
    history.replaceState(null, '', '/login');
    if (!token) {
      setError('This link has no token. Use the login link the server printed on start.');
      return;
    }
    mutate(token);
  }, [mutate]);

  return (
    <section className="card narrow" aria-labelledby="login-h">
      <h1 id="login-h">Signing in</h1>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : (
        <p className="muted">Exchanging the one-time link for a session…</p>
      )}
      <p>
        <Link to="/">Back to rooms</Link>
      </p>
    </section>
  );
}
