import {
  errorText,
  getSession,
  personalClient,
  useApiQuery,
  useCredentials,
  useMutation,
  useParams,
} from '@db8/web/kit';
import { useState } from 'react';
import { z } from 'zod';

// The organizer's part of a tournament page (its creator or an admin: GET
// /v1/arena/tournaments/:id/entrants answers no one else, and then this shows nothing): each outside
// and person entrant, who claimed it by name, and for an unclaimed one a single-use invitation link
// to hand to whoever should play it (POST …/invites; Claim.tsx takes it on the other side).

const Entrants = z.object({
  entrants: z.array(
    z.object({
      entrant: z.string(),
      kind: z.string(),
      claimed: z.boolean(),
      claimed_by: z.string().nullable(),
    }),
  ),
});
const Issued = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });

/** The tournament page's address with the invitation in its fragment (never sent to a server log). */
const linkFor = (tournament: string, token: string) =>
  `${location.origin}/rooms/${encodeURIComponent(tournament)}#arena-invite=${token}`;

export function OrganizerInvites({ status }: { status: string }) {
  const { id } = useParams({ strict: false }) as { id: string };
  const path = `/v1/arena/tournaments/${encodeURIComponent(id)}/entrants`;
  useCredentials();
  // Only a signed-in viewer can be the organizer: a signed-out page asks nothing.
  const signedIn = getSession() !== null;
  // Claims reach this page by no feed: the list polls while the tournament is open.
  const q = useApiQuery(['arena', 'entrants', id], path, Entrants, {
    retry: false,
    enabled: signedIn,
    // A refusal (not the organizer) is final: no polling then.
    refetchInterval: (query) => (status === 'open' && !query.state.error ? 5000 : false),
  });
  const [links, setLinks] = useState<Record<string, string>>({});
  const make = useMutation({
    mutationFn: (entrant: string) =>
      personalClient().request(Issued, 'POST', `/v1/arena/tournaments/${encodeURIComponent(id)}/invites`, {
        entrants: [entrant],
      }),
    onSuccess: (r) =>
      setLinks((l) => ({
        ...l,
        ...Object.fromEntries(r.invites.map((i) => [i.entrant, linkFor(id, i.invite)])),
      })),
  });
  const rows = q.data?.entrants ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="arena-invites-h" data-testid="arena-invites">
      <h3 id="arena-invites-h">Invitations</h3>
      <p className="muted small">
        Each link is single-use: whoever opens it and signs in plays that entrant. Only you see who claimed
        which.
      </p>
      <ul className="arena-invites">
        {rows.map((e) => (
          <li key={e.entrant} data-testid={`arena-invite-${e.entrant}`}>
            <strong>{e.entrant}</strong> <span className="muted small">({e.kind})</span> —{' '}
            {e.claimed ? (
              <>claimed by {e.claimed_by ?? 'someone without a name'}</>
            ) : status !== 'open' ? (
              <>never claimed</>
            ) : (
              <>
                not claimed yet{' '}
                <button
                  type="button"
                  className="chip"
                  disabled={make.isPending}
                  onClick={() => make.mutate(e.entrant)}
                >
                  {links[e.entrant] ? 'Make a new invitation link' : 'Make invitation link'}
                </button>
                {links[e.entrant] !== undefined ? (
                  <InviteLink entrant={e.entrant} url={links[e.entrant] ?? ''} />
                ) : null}
              </>
            )}
          </li>
        ))}
      </ul>
      {make.error ? (
        <p className="error" role="alert">
          No invitation: {errorText(make.error)}
        </p>
      ) : null}
    </section>
  );
}

function InviteLink({ entrant, url }: { entrant: string; url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="arena-invite-link">
      <input
        className="mono small invite-url"
        readOnly
        aria-label={`invitation link for ${entrant}`}
        value={url}
        onFocus={(ev) => ev.currentTarget.select()}
      />
      <button
        type="button"
        className="chip"
        onClick={() =>
          void navigator.clipboard?.writeText(url).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
