import {
  errorText,
  getSession,
  Link,
  personalClient,
  signInHref,
  useCredentials,
  useMutation,
  useParams,
  useQueryClient,
} from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { MY_MATCHES } from './Outside.tsx';

// Opening an invitation link (`/rooms/<tournament>#arena-invite=<token>`, from Invites.tsx or
// POST /v1/arena/tournaments/:id/invites): the token moves from the address bar into this browser's
// storage at once (so it is not left in history or a screenshot) and waits there until the person
// is signed in and claims the entrant; the page then lists their matches (Outside.tsx YourMatches).

const FRAGMENT = 'arena-invite';
const key = (tournament: string) => `db8.arena.invite.${tournament}`;

/** The entrant an invitation names (the token's own payload; the server checks it on the claim). */
export function entrantOf(token: string): string | null {
  try {
    const body = token.split('.')[1] ?? '';
    const bytes = Uint8Array.from(atob(body.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const json = new TextDecoder().decode(bytes);
    const seat = (JSON.parse(json) as { seat?: unknown }).seat;
    return typeof seat === 'string' && seat.startsWith('entrant:') ? seat.slice('entrant:'.length) : null;
  } catch {
    return null;
  }
}

/** The invitation on the address bar, moved to storage; else the one kept for this tournament. */
function useKeptInvite(tournament: string): [string | null, () => void] {
  const [invite, setInvite] = useState<string | null>(() => localStorage.getItem(key(tournament)));
  useEffect(() => {
    const take = () => {
      const fromUrl = new URLSearchParams(location.hash.replace(/^#/, '')).get(FRAGMENT);
      if (!fromUrl) return;
      localStorage.setItem(key(tournament), fromUrl);
      history.replaceState(history.state, '', `${location.pathname}${location.search}`);
      setInvite(fromUrl);
    };
    take();
    // A link pasted into the address bar of this very page changes only its fragment.
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, [tournament]);
  const drop = () => {
    localStorage.removeItem(key(tournament));
    setInvite(null);
  };
  return [invite, drop];
}

/** The server's refusal in words a person can act on. */
function refusal(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (code === 'INVITE_USED_UP') return 'This invitation was already used. Ask the organizer for a new one.';
  if (code === 'ENTRANT_CLAIMED') return 'Someone else already claimed this entrant.';
  if (code === 'INVITE_EXPIRED') return 'This invitation has expired. Ask the organizer for a new one.';
  if (code === 'ROOM_CLOSED') return 'The tournament is over.';
  if (code === 'FORBIDDEN' || code === 'INVALID_TOKEN')
    return `This invitation does not work here: ${errorText(e)}`;
  return `The claim failed: ${errorText(e)}`;
}

const Claimed = z.object({ tournament: z.string(), entrant: z.string() });

/** "Claim <entrant>" for an invitation this browser holds; a sign-in request when signed out. */
export function ClaimInvite({ status }: { status: string }) {
  const { id } = useParams({ strict: false }) as { id: string };
  useCredentials();
  const signedIn = getSession() !== null;
  const [invite, drop] = useKeptInvite(id);
  const [done, setDone] = useState<{ entrant?: string; error?: string } | null>(null);
  const qc = useQueryClient();
  const claim = useMutation({
    mutationFn: (token: string) =>
      personalClient().request(Claimed, 'POST', `/v1/arena/tournaments/${encodeURIComponent(id)}/claim`, {
        invite: token,
      }),
    onSuccess: (r) => {
      drop();
      setDone({ entrant: r.entrant });
      void qc.invalidateQueries({ queryKey: [...MY_MATCHES] });
      void qc.invalidateQueries({ queryKey: ['arena', 'entrants', id] });
    },
    // A refusal is final for this token (a network failure is not: it stays to try again).
    onError: (e) => {
      const status = (e as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400) drop();
      setDone({ error: refusal(e) });
    },
  });

  if (done?.entrant)
    return (
      <p className="notice" role="status" data-testid="arena-claimed">
        You play <strong>{done.entrant}</strong> in this tournament. Your matches are listed below as they are
        scheduled.
      </p>
    );
  if (done?.error)
    return (
      <p className="error" role="alert" data-testid="arena-claim-error">
        {done.error}
      </p>
    );
  if (!invite) return null;
  const entrant = entrantOf(invite) ?? 'your entrant';
  return (
    <section className="invite" aria-labelledby="arena-claim-h" data-testid="arena-claim">
      <h3 id="arena-claim-h">You are invited to play {entrant}</h3>
      {status !== 'open' ? (
        <p>The tournament is over: there is nothing to claim.</p>
      ) : signedIn ? (
        <button type="button" disabled={claim.isPending} onClick={() => claim.mutate(invite)}>
          Claim {entrant}
        </button>
      ) : (
        <p>
          <Link to={signInHref(location.pathname)}>Sign in</Link> to claim it: this browser keeps the
          invitation until you do, and this page offers the claim once you are back signed in (or signed in in
          another tab).
        </p>
      )}
    </section>
  );
}
