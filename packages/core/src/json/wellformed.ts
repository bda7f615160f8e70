// String.prototype.isWellFormed is native in Node 20 and current browsers; the regex is the fallback.
const native = (String.prototype as unknown as { isWellFormed?: () => boolean }).isWellFormed;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` is well-formed UTF-16: every surrogate is half of a pair, so it has a UTF-8 form. */
export const isWellFormed: (s: string) => boolean = native ? (s) => native.call(s) : (s) => !LONE.test(s);
