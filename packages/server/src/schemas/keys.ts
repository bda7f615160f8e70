import { z } from 'zod';

/**
 * GET /v1/keys: the server's public signing key in every form a verifier pins. The same values as
 * the `key` record of every journal bundle, without exporting a room.
 */
export const KeysResponseSchema = z.object({
  /** C2SP signed-note verifier key `<name>+<keyid>+<base64>` (checks checkpoint notes). */
  note_vkey: z.string().regex(/^[^+\s]+\+[0-9a-f]{8}\+\S+$/),
  /** `ssh-ed25519 AAAA… <comment>`. */
  ssh_public_key: z.string().startsWith('ssh-ed25519 '),
  /** Principal of the server key in allowed_signers (`server@<origin>`). */
  identity: z.string().min(1),
  /** SSHSIG namespace of checkpoint signatures (`ssh-keygen -Y verify -n <namespace>`). */
  namespace: z.string().min(1),
  /** A ready allowed_signers line: `<identity> namespaces="<namespace>" ssh-ed25519 AAAA…`. */
  allowed_signers: z.string().min(1),
});
export type KeysResponse = z.infer<typeof KeysResponseSchema>;
