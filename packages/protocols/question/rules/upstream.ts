import { isRfc3339 } from '@db8/core';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type Checked, refuse } from './codes.ts';
import answerRoomMetadataSchema from './schemas/answer-room-metadata.v1.schema.json' with { type: 'json' };
import nymCertificateSchema from './schemas/nym-certificate.v1.schema.json' with { type: 'json' };
import nymSuccessionSchema from './schemas/nym-succession.v1.schema.json' with { type: 'json' };
import questionEnvelopeSchema from './schemas/question-envelope.v1.schema.json' with { type: 'json' };

/**
 * The upstream Orbiplex JSON Schemas (draft 2020-12), checked with Ajv exactly as published. The
 * envelope `$ref`s the nym certificate by file name and the certificate the succession proof; a
 * relative file name cannot be resolved against the schemas' `urn:` ids, so each such `$ref` is
 * rewritten to the referenced schema's own `$id` before compiling (nothing else changes), and
 * `format: date-time` is checked by @db8/core's RFC 3339 parser.
 */

export const UPSTREAM_SCHEMAS = {
  'question-envelope.v1.schema.json': questionEnvelopeSchema,
  'nym-certificate.v1.schema.json': nymCertificateSchema,
  'nym-succession.v1.schema.json': nymSuccessionSchema,
  'answer-room-metadata.v1.schema.json': answerRoomMetadataSchema,
} as const;

const idByFile: Record<string, string> = Object.fromEntries(
  Object.entries(UPSTREAM_SCHEMAS).map(([file, schema]) => [file, schema.$id]),
);

function resolveFileRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(resolveFileRefs);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === '$ref' && typeof x === 'string' && idByFile[x] ? idByFile[x] : resolveFileRefs(x),
    ]),
  );
}

let compiled: { envelope: ValidateFunction; metadata: ValidateFunction } | null = null;

// Compiled on first use: Ajv generates code, which a module that only folds rooms never needs.
function validators(): { envelope: ValidateFunction; metadata: ValidateFunction } {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  // Every date-time (created-at, a certificate's validity) is read by the one strict parser the
  // folds use: ajv-formats passes `…T23:59:60Z` and a space for `T`, which Date.parse reads as NaN.
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339 });
  ajv.addSchema(resolveFileRefs(nymSuccessionSchema) as object);
  ajv.addSchema(resolveFileRefs(nymCertificateSchema) as object);
  compiled = {
    envelope: ajv.compile(resolveFileRefs(questionEnvelopeSchema) as object),
    metadata: ajv.compile(resolveFileRefs(answerRoomMetadataSchema) as object),
  };
  return compiled;
}

/** One schema violation, as tests and clients read it. */
export interface SchemaIssue {
  path: string;
  schemaPath: string;
  keyword: string;
  message: string;
}

function issues(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath,
    schemaPath: e.schemaPath,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
  }));
}

function check<T>(validate: ValidateFunction, value: unknown, what: string): Checked<T> {
  if (validate(value)) return { ok: true, value: value as T };
  const found = issues(validate.errors);
  return refuse('SCHEMA_INVALID', `not a valid ${what}`, { issues: found });
}

/** Flat Orbiplex question envelope (`question-envelope.v1`); open to extra members like upstream. */
export type QuestionEnvelope = Record<string, unknown> & {
  'schema/v': 1;
  'question/id': string;
  'created-at': string;
  'sender/node-id': string;
  'delivery/scope': 'private-to-swarm' | 'federation-local' | 'cross-federation' | 'global';
  'delivery/response-channel-id': string;
  'ttl-sec': number;
};

/**
 * Upstream (orbidocs c895110, "council identity as did:key") requires a nym certificate's
 * `issuer/id` to be a `council:did:key:z…`; a certificate naming any other issuer is refused with
 * its own code, ISSUER_NOT_COUNCIL, rather than the generic SCHEMA_INVALID.
 */
export const COUNCIL_ID = /^council:did:key:z[1-9A-HJ-NP-Za-km-z]+$/;

export function validateQuestionEnvelope(value: unknown): Checked<QuestionEnvelope> {
  const r = check<QuestionEnvelope>(validators().envelope, value, 'question-envelope.v1');
  if (r.ok) return r;
  const found = (r.error.details as { issues: SchemaIssue[] }).issues;
  const issuer = found.filter((i) => i.path.endsWith('/issuer~1id') && i.keyword === 'pattern');
  return issuer.length > 0
    ? refuse('ISSUER_NOT_COUNCIL', "the nym certificate's issuer/id is not a council:did:key", {
        issues: found,
      })
    : r;
}

export function validateAnswerRoomMetadata(value: unknown): Checked<Record<string, unknown>> {
  return check(validators().metadata, value, 'answer-room-metadata.v1');
}
