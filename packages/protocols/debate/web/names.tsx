import { AgentLink, anonClient, Badge, useQuery } from '@db8/web/kit';
import { identityNames } from '../client/index.ts';
import { debateKeys } from './keys.ts';

// Identities are principal ids (agt_…); people read names. The server gives each id's display name
// and whether it registered as scripted (GET /v1/identities); the id stays visible, small, beside it.

export type Known = Record<string, { name: string; scripted: boolean }>;

/** Names of these identities (ids the server does not know stay absent). */
export function useIdentityNames(ids: readonly (string | null | undefined)[]): Known {
  const key = [...new Set(ids.filter((x): x is string => !!x))].sort().join(',');
  const read = useQuery({
    queryKey: debateKeys.names(key),
    queryFn: async () => (await identityNames(anonClient(), key.split(','))).identities,
    enabled: key !== '',
  });
  // Without names (none asked, or the read failed) the ids are shown.
  return read.data ?? {};
}

export function IdentityName(props: {
  identity: string;
  name: string | null | undefined;
  scripted?: boolean;
  /** data-testid of the name itself. */
  testId?: string;
}) {
  const { identity, name } = props;
  return (
    <span className="identity">
      <strong data-testid={props.testId ?? 'identity-name'}>
        {name ? <AgentLink id={identity} name={name} /> : identity}
      </strong>
      {props.scripted ? (
        <>
          {' '}
          <Badge tone="muted" title="registered as a scripted agent: not a model or a person">
            scripted
          </Badge>
        </>
      ) : null}
      {name && name !== identity ? <span className="mono small muted"> {identity}</span> : null}
    </span>
  );
}
