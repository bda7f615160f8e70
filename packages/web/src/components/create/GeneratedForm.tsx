import type { AnyProtocol } from '@db8/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useMemo, useRef } from 'react';
import { type FieldErrors, type FieldValues, type Resolver, set, useForm } from 'react-hook-form';
import { z } from 'zod';
import { configTree, startingValue } from '../../lib/config-fields.ts';
import { protocolNamed } from '../../lib/protocols.ts';
import { type BadJson, ConfigInput } from './GeneratedFields.tsx';

// The create form of a protocol whose web module has none of its own: inputs generated from the
// protocol's zod config schema (lib/config-fields.ts), starting from the module's preset, checked
// as you type by the same schema through react-hook-form's zod resolver, as the protocols' own forms
// are. Parts it cannot draw as inputs are JSON text, checked too.

type Values = { config: unknown };

/** A field left empty says so, rather than "expected number, received undefined"; else zod's own words. */
const missing = (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined;

/** The schema's check of `config`, and a JSON part that does not parse reported at its own path. */
function resolverFor(p: AnyProtocol, bad: BadJson): Resolver<FieldValues> {
  const zod = zodResolver(
    z.object({ config: p.configSchema }),
    { error: missing },
    { raw: true },
  ) as unknown as Resolver<FieldValues>;
  return async (values, context, options) => {
    const result = await zod(values, context, options);
    if (bad.size === 0) return result;
    const errors: FieldErrors = { ...result.errors };
    for (const [path, message] of bad) set(errors, path, { type: 'json', message });
    return { values: {}, errors };
  };
}

export function GeneratedForm(props: {
  protocol: string;
  preset: Record<string, unknown>;
  onSubmit: (config: Record<string, unknown>) => void | Promise<void>;
  footer: (config: unknown) => ReactNode;
}) {
  const proto = protocolNamed(props.protocol);
  const tree = useMemo(() => (proto ? configTree(proto) : null), [proto]);
  const bad = useRef<BadJson>(new Map()).current;
  const form = useForm<FieldValues>({
    ...(proto ? { resolver: resolverFor(proto, bad) } : {}),
    defaultValues: { config: tree ? startingValue(tree, props.preset) : props.preset } satisfies Values,
    mode: 'onChange',
  });
  if (!proto || !tree) return <p className="error">No protocol named {props.protocol} is installed.</p>;
  const config = form.watch('config');
  return (
    <form
      onSubmit={form.handleSubmit((v) => props.onSubmit(v.config as Record<string, unknown>))}
      noValidate
      className="generated-form"
      data-testid="generated-form"
    >
      <fieldset>
        <legend>config</legend>
        <ConfigInput field={tree} path="config" form={form} bad={bad} />
      </fieldset>
      {Object.keys(form.formState.errors).length > 0 && form.formState.isSubmitted ? (
        <p className="error" role="alert">
          Fix the fields marked above.
        </p>
      ) : null}
      {props.footer(config)}
    </form>
  );
}
