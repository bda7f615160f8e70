import { useSyncExternalStore } from 'react';
import type { JoinResult, Session } from './types.ts';

// Credentials live in localStorage so a reload keeps them; each browser profile (and each Playwright
// context) has its own. Two kinds: the person's session (admin link, OIDC) and one seat session per
// joined room (the room-scoped token the server issues on join).

const SESSION_KEY = 'db8.session';

/** The person's session, and their name as their identity provider gave it (OIDC sign-in). */
export type StoredSession = Session & { name?: string };
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

export function setSession(s: StoredSession | null): void {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  changed();
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
