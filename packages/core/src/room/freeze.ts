/**
 * Freezes a value and everything reachable from it, so a protocol that mutates a state it was
 * given throws (in strict mode) instead of silently corrupting an earlier state. Already frozen
 * subtrees are skipped: states share structure, so each fold freezes only what is new.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
