import { redactUrl } from '@db8/agents';
import type { DriverSpec } from '../schemas/drivers.ts';

/**
 * A driver spec as it may leave the server: in a response, a log line or an export. Specs hold no
 * key field, but a `base_url` may carry one (`user:pass@`, `?api-key=…`); every place that shows a
 * spec goes through here, so there is one rule for what is hidden.
 */
export function redactDriverSpec(spec: DriverSpec): DriverSpec {
  return spec.base_url === undefined ? spec : { ...spec, base_url: redactUrl(spec.base_url) };
}

/** Every seat's spec, redacted. */
export function redactDriverSpecs(specs: Readonly<Record<string, DriverSpec>>): Record<string, DriverSpec> {
  return Object.fromEntries(Object.entries(specs).map(([seat, s]) => [seat, redactDriverSpec(s)]));
}
