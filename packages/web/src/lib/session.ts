import { useSyncExternalStore } from 'react';
import type { JoinResult, Session } from './types.ts';

// Credentials live in localStorage so a reload keeps them; each browser profile (and each Playwright
// context) has its own. Two kinds: the person's session (admin link, OIDC) and one seat session per
// joined room (the room-scoped token the server issues on join).

const SESSION_KEY = 'db8.session';

/** The person's session, and their name as the server keeps it (GET /v1/auth/me at sign-in). */
export type StoredSession = Session & { name?: string };
/** Set when the person's session ended without their signing out (expired, or refused by the server). */
const ENDED_KEY = 'db8.session.ended';
const seatKey = (roomId: string) => `db8.seat.${roomId}`;

const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const fn of listeners) fn();
}

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function expired(expiresAt: string): boolean {
  const t = Date.parse(expiresAt);
  return Number.isFinite(t) && t <= Date.now();
}

export function getSession(): StoredSession | null {
  const s = read<StoredSession>(SESSION_KEY);
  return s && !expired(s.expires_at) ? s : null;
}

/** Signing in (a session) or out (null): either way no "session ended" notice is left. */
export function setSession(s: StoredSession | null): void {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  localStorage.removeItem(ENDED_KEY);
  changed();
}

/** The server refused the person's session `token` (401): drop it, and say so until they sign in again. */
export function endSession(token: string): void {
  const s = read<StoredSession>(SESSION_KEY);
  if (s?.token !== token) return; // already replaced (a new sign-in) or gone
  localStorage.removeItem(SESSION_KEY);
  localStorage.setItem(ENDED_KEY, '1');
  changed();
}

/** Whether the person's session ended on its own: refused by the server, or stored but expired. */
export function sessionEnded(): boolean {
  if (localStorage.getItem(ENDED_KEY)) return true;
  const s = read<StoredSession>(SESSION_KEY);
  return s !== null && expired(s.expires_at);
}

/** The person has read the notice: forget the ended session. */
export function dismissEnded(): void {
  setSession(null);
}

export function getSeat(roomId: string): JoinResult | null {
  const s = read<JoinResult>(seatKey(roomId));
  return s && !expired(s.expires_at) ? s : null;
}

export function setSeat(roomId: string, j: JoinResult | null): void {
  if (j) localStorage.setItem(seatKey(roomId), JSON.stringify(j));
  else localStorage.removeItem(seatKey(roomId));
  changed();
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  const onStorage = () => changed();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

/** Re-renders when any credential changes (here or in another tab). */
export function useCredentials(): number {
  return useSyncExternalStore(subscribe, () => version);
}
