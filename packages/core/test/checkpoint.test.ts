import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conformancePath } from '../../../test/conformance.ts';
import { leafHash, MerkleLog, verifyConsistency, verifyInclusion } from '../src/merkle/index.ts';
import {
  type Checkpoint,
  ed25519Signer,
  formatCheckpoint,
  NoteError,
  type NoteErrorCode,
  openNote,
  parseCheckpoint,
  roomOrigin,
  signCheckpoint,
  signNote,
  verifyCheckpoint,
} from '../src/note/index.ts';

// tlog-checkpoint.md's example signed checkpoint (key not published), extracted byte for byte.
const example: string | undefined = readFileSync(
  conformancePath('merkle', 'signed-note', 'checkpoint-example.txt'),
  'utf8',
);

function code(f: () => unknown): NoteErrorCode | 'NO_ERROR' {
  try {
    f();
  } catch (err) {
    if (err instanceof NoteError) return err.code;
    throw err;
  }
  return 'NO_ERROR';
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const server = ed25519Signer('db8.example', new Uint8Array(32).fill(42));

describe('tlog-checkpoint spec example', () => {
  it('parses, and formats back to the same text', () => {
    expect(example).toBeDefined();
    const body = example!.slice(0, example!.lastIndexOf('\n\n') + 1);
    const cp = parseCheckpoint(body);
    expect(cp.origin).toBe('example.com/behind-the-sofa');
    expect(cp.size).toBe(20852163);
    expect(Buffer.from(cp.rootHash).toString('base64')).toBe('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=');
    expect(cp.extensions).toBeUndefined();
    expect(formatCheckpoint(cp)).toBe(body);
  });

  it('is a well-formed note whose key we do not know', () => {
    expect(code(() => openNote(example!, []))).toBe('UNVERIFIED_NOTE');
    expect(code(() => verifyCheckpoint(example!, [server.verifier]))).toBe('UNVERIFIED_NOTE');
  });
});

describe('signed checkpoints over a MerkleLog', () => {
  const log = MerkleLog.fromLeafHashes(Array.from({ length: 10 }, (_, i) => leafHash(new Uint8Array([i]))));
  const origin = roomOrigin('db8.example', 'room_abc');

  it('sign → verify round trip, then prove inclusion and consistency against the checkpoint roots', () => {
    expect(origin).toBe('db8.example/room/room_abc');
    const note6 = signCheckpoint({ origin, size: 6, rootHash: log.root(6) }, [server]);
    const note10 = signCheckpoint({ origin, size: 10, rootHash: log.root() }, [server]);
    expect(note10.startsWith(`${origin}\n10\n`)).toBe(true);
    const a = verifyCheckpoint(note6, [server.verifier], { origin }).checkpoint;
    const b = verifyCheckpoint(note10, [server.verifier], { origin }).checkpoint;
    expect(b.size).toBe(10);
    expect(hex(b.rootHash)).toBe(hex(log.root()));
    expect(verifyInclusion(log.leaf(7), 7, b.size, log.inclusionProof(7), b.rootHash)).toBe(true);
    expect(verifyConsistency(a.size, b.size, log.consistencyProof(6, 10), a.rootHash, b.rootHash)).toBe(true);
  });

  it('rejects another origin, a forged size, an unknown key', () => {
    const note = signCheckpoint({ origin, size: 10, rootHash: log.root() }, [server]);
    expect(
      code(() => verifyCheckpoint(note, [server.verifier], { origin: roomOrigin('db8.example', 'other') })),
    ).toBe('WRONG_ORIGIN');
    expect(code(() => verifyCheckpoint(note.replace('\n10\n', '\n11\n'), [server.verifier]))).toBe(
      'INVALID_SIGNATURE',
    );
    const stranger = ed25519Signer('db8.example', new Uint8Array(32).fill(7));
    expect(code(() => verifyCheckpoint(note, [stranger.verifier]))).toBe('UNVERIFIED_NOTE');
  });

  it('a signed note that is not a checkpoint is rejected as such', () => {
    for (const text of ['just some text\n', `${origin}\n10\n`, `${origin}\nten\n${hexRoot()}\n`]) {
      expect(code(() => verifyCheckpoint(signNote(text, [server]), [server.verifier]))).toBe(
        'MALFORMED_CHECKPOINT',
      );
    }
  });

  it('keeps extension lines', () => {
    const cp: Checkpoint = { origin, size: 3, rootHash: log.root(3), extensions: ['ext one', 'ext two'] };
    const text = formatCheckpoint(cp);
    expect(text.split('\n')).toEqual([
      origin,
      '3',
      Buffer.from(log.root(3)).toString('base64'),
      'ext one',
      'ext two',
      '',
    ]);
    const back = verifyCheckpoint(signCheckpoint(cp, [server]), [server.verifier]).checkpoint;
    expect(back.extensions).toEqual(['ext one', 'ext two']);
  });
});

const hexRoot = () => Buffer.from(new Uint8Array(32)).toString('base64');

describe('parseCheckpoint / formatCheckpoint strictness', () => {
  const root = Buffer.from(new Uint8Array(32).fill(1)).toString('base64');
  it('rejects malformed checkpoint text', () => {
    const bad = [
      `o\n1\n${root}`, // no final newline
      `o\n1\n`, // no root line
      `\n1\n${root}\n`, // empty origin
      `o\n01\n${root}\n`, // leading zero
      `o\n-1\n${root}\n`,
      `o\n1e3\n${root}\n`,
      `o\n+1\n${root}\n`,
      `o\n 1\n${root}\n`,
      `o\n9007199254740992\n${root}\n`, // beyond 2^53 - 1
      `o\n1\n${root.slice(0, -4)}\n`, // 30-byte root
      `o\n1\n${root.replace('=', '')}\n`, // unpadded
      `o\n1\n${root}\n\n`, // empty extension line
      `o\n1\n${root}\next\n\n`,
    ];
    for (const t of bad)
      expect(
        code(() => parseCheckpoint(t)),
        JSON.stringify(t),
      ).toBe('MALFORMED_CHECKPOINT');
    expect(parseCheckpoint(`o\n0\n${root}\n`).size).toBe(0);
    expect(parseCheckpoint(`o\n9007199254740991\n${root}\n`).size).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses to format an invalid checkpoint', () => {
    const rootHash = new Uint8Array(32);
    const bad: Checkpoint[] = [
      { origin: '', size: 1, rootHash },
      { origin: 'a\nb', size: 1, rootHash },
      { origin: 'o', size: -1, rootHash },
      { origin: 'o', size: 1.5, rootHash },
      { origin: 'o', size: 1, rootHash: new Uint8Array(31) },
      { origin: 'o', size: 1, rootHash, extensions: [''] },
      { origin: 'o', size: 1, rootHash, extensions: ['a\nb'] },
    ];
    for (const cp of bad) expect(code(() => formatCheckpoint(cp))).toBe('MALFORMED_CHECKPOINT');
  });
});
