import { Db8Client } from '@db8/sdk';
import { Badge, tokenFor } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { researchCheck } from '../client/index.ts';
import type { CitationCheck as Check } from '../rules/index.ts';

// A quoted citation checked against the room's cached snapshot of its URL (docs/debate.md,
// "Research"): "found in snapshot sha256 …", "not found", or "not cached". Shown to whoever may
// read the cache (the room's seats and admins; anyone once the room is closed); nothing otherwise.

export const roomClient = (roomId: string) =>
  new Db8Client({ baseUrl: location.origin, token: tokenFor(roomId) });

export function CitationCheck(props: { roomId: string; url: string; quote: string }) {
  const { roomId, url, quote } = props;
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => {
    let stop = false;
    researchCheck(roomClient(roomId), roomId, { url, quote })
      .then((c) => {
        if (!stop) setCheck(c);
      })
      .catch(() => undefined); // not a reader of this room's cache: no badge
    return () => {
      stop = true;
    };
  }, [roomId, url, quote]);
  if (!check) return null;
  const label =
    check.result === 'found'
      ? `found in snapshot sha256 ${check.sha256?.slice(0, 12)}…`
      : check.result === 'not_found'
        ? `not found in snapshot sha256 ${check.sha256?.slice(0, 12)}…`
        : 'not cached: nobody fetched this page';
  return (
    <span data-testid="citation-check" data-result={check.result} title={check.sha256 ?? undefined}>
      <Badge tone={check.result === 'found' ? 'ok' : check.result === 'not_found' ? 'bad' : 'muted'}>
        {label}
      </Badge>
    </span>
  );
}
