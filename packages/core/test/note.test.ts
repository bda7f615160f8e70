import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conformancePath } from '../../../test/conformance.ts';
import {
  ed25519Signer,
  formatSignerKey,
  formatVerifierKey,
  generateNoteKey,
  NoteError,
  type NoteErrorCode,
  noteKeyId,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from '../src/note/index.ts';

// The C2SP signed-note spec's examples, extracted byte for byte (test/conformance/merkle/signed-note).
const example = (name: string) => readFileSync(conformancePath('merkle', 'signed-note', name), 'utf8');

function code(f: () => unknown): NoteErrorCode | 'NO_ERROR' {
  try {
    f();
  } catch (err) {
    if (err instanceof NoteError) return err.code;
    throw err;
  }
  return 'NO_ERROR';
}

describe('the C2SP signed-note spec example', () => {
  // signed-note.md, section "Verifier keys" → "Example": a verifier key, then the note it verifies.
  const vkey = /^vkey: (\S+)$/m.exec(example('example-vkey.txt'))?.[1];
  const note = example('example-note.txt');

  it('is present in the extracted copies (example-vkey.txt, example-note.txt)', () => {
    expect(vkey).toBe('example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k');
    expect(note).toMatch(/^This is an example message\.\n\n— example\.com\/foo \S+\n$/);
  });

  it('verifies with the example key', () => {
    const v = parseVerifierKey(vkey!);
    expect(v.name).toBe('example.com/foo');
    expect(v.keyId).toBe(0x530d903a);
    expect(v.vkey).toBe(vkey);
    const opened = openNote(note!, [v]);
    expect(opened.text).toBe('This is an example message.\n');
    expect(opened.sigs).toEqual([
      { name: 'example.com/foo', keyId: 0x530d903a, base64: note!.split(' ').at(-1)!.trim() },
    ]);
    expect(opened.unverifiedSigs).toEqual([]);
    // The same bytes open too (UTF-8 input path).
    expect(openNote(new TextEncoder().encode(note!), [v]).text).toBe(opened.text);
  });

  it('rejects the example note once its text is changed', () => {
    const v = parseVerifierKey(vkey!);
    expect(code(() => openNote(note!.replace('example message', 'example massage'), [v]))).toBe(
      'INVALID_SIGNATURE',
    );
    // An extra blank line belongs to the text (the last blank line separates), so the text changed.
    expect(code(() => openNote(note!.replace('.\n\n', '.\n\n\n'), [v]))).toBe('INVALID_SIGNATURE');
    expect(code(() => openNote(note!.replace('.\n\n', '.\n'), [v]))).toBe('MALFORMED_NOTE');
  });

  it("parses the spec's opening note (unknown key): multi-line text with a blank line and non-ASCII", () => {
    const poem = example('opening-note.txt');
    expect(code(() => openNote(poem, []))).toBe('UNVERIFIED_NOTE');
    const other = ed25519Signer('quasimodo.example/salvatore', new Uint8Array(32).fill(3));
    // Same key name, unknown key ID: still ignored, so still unverified.
    expect(code(() => openNote(poem, [other.verifier]))).toBe('UNVERIFIED_NOTE');
  });
});

// golang.org/x/mod/sumdb/note (note_test.go and the package docs), used as data: Ed25519 is
// deterministic, so our signer must reproduce the reference signature byte for byte.
const GO = {
  skey: 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz',
  vkey: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  enochVkey: 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop',
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  peterSig:
    '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
  enochSig:
    '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n',
};
const sigOf = (line: string) => line.trim().split(' ')[2]!;

describe('interop with the Go reference (golang.org/x/mod/sumdb/note)', () => {
  const peter = parseVerifierKey(GO.vkey);
  const enoch = parseVerifierKey(GO.enochVkey);

  it('signer and verifier key formats round-trip and sign identically', () => {
    const signer = parseSignerKey(GO.skey);
    expect(signer.name).toBe('PeterNeumann');
    expect(signer.keyId).toBe(0xc74f20a3);
    expect(signer.skey).toBe(GO.skey);
    expect(signer.verifier.vkey).toBe(GO.vkey);
    expect(signNote(GO.text, [signer])).toBe(`${GO.text}\n${GO.peterSig}`);
    expect(formatVerifierKey('PeterNeumann', peter.publicKey)).toBe(GO.vkey);
    expect(noteKeyId('EnochRoot', enoch.publicKey)).toBe(0xaf0cfe78);
  });

  it('one known key verified, the other kept as unverified; both known; none known', () => {
    const note = `${GO.text}\n${GO.peterSig}${GO.enochSig}`;
    const one = openNote(note, [peter]);
    expect(one.text).toBe(GO.text);
    expect(one.sigs).toEqual([{ name: 'PeterNeumann', keyId: 0xc74f20a3, base64: sigOf(GO.peterSig) }]);
    expect(one.unverifiedSigs).toEqual([
      { name: 'EnochRoot', keyId: 0xaf0cfe78, base64: sigOf(GO.enochSig) },
    ]);
    expect(openNote(note, [peter, enoch]).sigs.map((s) => s.name)).toEqual(['PeterNeumann', 'EnochRoot']);
    expect(code(() => openNote(note, []))).toBe('UNVERIFIED_NOTE');
  });

  it('duplicate verifiers are an error only for notes that use that key', () => {
    expect(code(() => openNote(`${GO.text}\n${GO.enochSig}`, [enoch, peter, enoch]))).toBe('AMBIGUOUS_KEY');
    expect(code(() => openNote(`${GO.text}\n${GO.peterSig}`, [enoch, peter, enoch]))).toBe('NO_ERROR');
  });

  it('caps the number of signatures', () => {
    expect(code(() => openNote(`${GO.text}\n${GO.peterSig.repeat(100)}`, [peter]))).toBe('NO_ERROR');
    expect(code(() => openNote(`${GO.text}\n${GO.peterSig.repeat(101)}`, [peter]))).toBe('MALFORMED_NOTE');
    expect(code(() => openNote(`${GO.text}\n${GO.peterSig.repeat(101)}`, []))).toBe('MALFORMED_NOTE');
  });

  it('a bad signature by a known key rejects the note; repeats are reported once', () => {
    const bad = (line: string) => `${line.slice(0, 60)}ABCD${line.slice(60)}`;
    expect(code(() => openNote(`${GO.text}\n${bad(GO.peterSig)}`, [peter]))).toBe('INVALID_SIGNATURE');
    // A good and then a bad signature by the same known key: every one is checked.
    expect(code(() => openNote(`${GO.text}\n${GO.peterSig}${bad(GO.peterSig)}`, [peter]))).toBe(
      'INVALID_SIGNATURE',
    );
    const n = openNote(
      `${GO.text}\n${GO.peterSig}${GO.peterSig}${GO.enochSig}${GO.enochSig}${bad(GO.enochSig)}`,
      [peter],
    );
    expect(n.sigs).toHaveLength(1);
    expect(n.unverifiedSigs.map((s) => s.base64)).toEqual([sigOf(GO.enochSig), sigOf(bad(GO.enochSig))]);
  });

  it('rejects malformed notes (the reference table, plus a few more)', () => {
    const bad = [
      GO.text, // no signatures
      `${GO.text}\n`, // blank line, no signatures
      `${GO.text}\n${GO.peterSig.slice(0, -1)}`, // last line unterminated
      `\x01${GO.text}\n${GO.peterSig}`, // control character
      `${GO.text}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${GO.text}\n${GO.peterSig}Unexpected line.\n`,
      `${GO.text.slice(0, -1)}\n${GO.peterSig}`, // text without its final newline: no blank line
      `${GO.text}\n${GO.peterSig.replace('— ', '-- ')}`, // not an em dash
      `${GO.text}\n${GO.peterSig.replace('=\n', '\n')}`, // unpadded base64
      `${GO.text}\n${GO.peterSig.replace('AM=', 'AN=')}`, // non-canonical base64 (stray low bits)
      `${GO.text}\n— PeterNeumann AAAA\n`, // signature shorter than a key ID + 1 byte
      `${GO.text}\n— PeterNeumann\n`, // no signature
      `${GO.text}\n${GO.peterSig}\n`, // trailing blank line
      `${GO.text}\r\n${GO.peterSig}`, // CR
      `\ud800${GO.text}\n${GO.peterSig}`, // lone surrogate
    ];
    for (const msg of bad)
      expect(
        code(() => openNote(msg, [peter])),
        JSON.stringify(msg),
      ).toBe('MALFORMED_NOTE');
    const invalidUtf8 = new Uint8Array([0xff, ...new TextEncoder().encode(`${GO.text}\n${GO.peterSig}`)]);
    expect(code(() => openNote(invalidUtf8, [peter]))).toBe('MALFORMED_NOTE');
  });

  it('ignores signatures that share only the name or only the key ID with a known key', () => {
    const sameName = ed25519Signer('PeterNeumann', new Uint8Array(32).fill(9));
    const note = signNote(GO.text, [sameName]);
    expect(code(() => openNote(note, [peter]))).toBe('UNVERIFIED_NOTE');
    const sameId = GO.peterSig.replace('PeterNeumann', 'PaulNeumann');
    expect(code(() => openNote(`${GO.text}\n${sameId}`, [peter]))).toBe('UNVERIFIED_NOTE');
  });
});

describe('keys', () => {
  it('generates keys that sign and verify, and only for their own note', () => {
    const { skey, vkey } = generateNoteKey('db8.example/server');
    const signer = parseSignerKey(skey);
    const verifier = parseVerifierKey(vkey);
    expect(signer.verifier.vkey).toBe(vkey);
    const note = signNote('hello\n\nworld\n', [signer]);
    expect(openNote(note, [verifier]).text).toBe('hello\n\nworld\n');
    const other = parseVerifierKey(generateNoteKey('db8.example/server').vkey);
    expect(code(() => openNote(note, [other]))).toBe('UNVERIFIED_NOTE');
  });

  it('signs with several keys, in order', () => {
    const a = ed25519Signer('a.example', new Uint8Array(32).fill(1));
    const b = ed25519Signer('b.example', new Uint8Array(32).fill(2));
    const note = signNote('text\n', [a, b]);
    expect(openNote(note, [b.verifier]).unverifiedSigs.map((s) => s.name)).toEqual(['a.example']);
    expect(openNote(note, [a.verifier, b.verifier]).sigs.map((s) => s.name)).toEqual([
      'a.example',
      'b.example',
    ]);
  });

  it('rejects malformed or inconsistent key strings', () => {
    const [name, id, key] = GO.vkey.split('+') as [string, string, string];
    const badVkeys = [
      `${name}+${id}`,
      `${name}+${id}+${key}+x`, // base64 may contain '+', but this is not base64 of 33 bytes
      `${name}+${id.toUpperCase()}+${key}`,
      `${name}+c74f20a4+${key}`, // wrong key ID
      `Peter+${id}+${key}`, // key ID of another name
      `+${id}+${key}`,
      `Peter Neumann+${id}+${key}`,
      `${name}+${id}+${key.slice(0, -4)}`, // short key
      `${name}+${id}+AhpcAcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW`, // type 0x02
    ];
    for (const k of badVkeys)
      expect(
        code(() => parseVerifierKey(k)),
        k,
      ).toBe('BAD_KEY');
    const badSkeys = [
      GO.skey.replace('PRIVATE+KEY', 'PUBLIC+KEY'),
      GO.skey.replace('c74f20a3', 'c74f20a4'),
      GO.skey.replace('+AYEK', '+AoEK'), // type byte 0x02
      GO.vkey,
    ];
    for (const k of badSkeys)
      expect(
        code(() => parseSignerKey(k)),
        k,
      ).toBe('BAD_KEY');
    expect(code(() => formatSignerKey('a+b', new Uint8Array(32)))).toBe('BAD_KEY');
    expect(code(() => formatVerifierKey('a\u00a0b', new Uint8Array(32)))).toBe('BAD_KEY');
    expect(code(() => formatVerifierKey('ab', new Uint8Array(31)))).toBe('BAD_KEY');
  });

  it('refuses to sign text that is not a note text', () => {
    const s = ed25519Signer('a.example', new Uint8Array(32).fill(1));
    expect(code(() => signNote('abc', [s]))).toBe('MALFORMED_NOTE');
    expect(code(() => signNote('a\tb\n', [s]))).toBe('MALFORMED_NOTE');
    expect(code(() => signNote('abc\n', []))).toBe('MALFORMED_NOTE');
  });
});
