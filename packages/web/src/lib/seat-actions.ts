import { useState } from 'react';
import { api } from './api.ts';
import { useNavigate } from './router.tsx';
import { getSeat, getSession, setSeat } from './session.ts';

// Taking a seat: the seat this browser holds, the invite on the URL, and the join / invite-link
// actions. Shared by the generic room's seat panel and a protocol module's own seat card, which
// differ only in how they show it.

/** An invite arrives as `?invite=…` or `#invite=…` on the room URL. */
export function inviteFromUrl(): string | null {
  const q = new URLSearchParams(location.search).get('invite');
  if (q) return q;
  return new URLSearchParams(location.hash.replace(/^#/, '')).get('invite') || null;
}

export function useSeatActions(roomId: string, onJoined: () => void) {
  const navigate = useNavigate();
  const held = getSeat(roomId);
  const session = getSession();
  const invite = inviteFromUrl();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [links, setLinks] = useState<Record<string, string>>({});
  const admin = session?.role === 'admin';
  // People take seats through invites; admins and agents may join directly.
  const direct = admin || session?.role === 'agent';

  const join = async (seat?: string) => {
    setBusy(true);
    setError(null);
    try {
      const j = await api.join(roomId, { ...(seat ? { seat } : {}), ...(invite ? { invite } : {}) });
      setSeat(roomId, j);
      if (invite) void navigate({ to: `/rooms/${encodeURIComponent(roomId)}`, replace: true });
      onJoined();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const makeInvite = async (seat: string) => {
    setError(null);
    try {
      const inv = await api.invite(roomId, seat);
      // Built on this page's origin: the one the admin reaches the server by (the server's idea of
      // its public URL may be an internal address).
      const url = `${location.origin}/rooms/${encodeURIComponent(inv.room_id)}/join#invite=${inv.invite}`;
      setLinks((prev) => ({ ...prev, [seat]: url }));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const leave = () => setSeat(roomId, null);

  return { held, invite, admin, direct, busy, error, links, join, makeInvite, leave };
}
