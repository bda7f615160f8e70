export { clipText, codePointLength, truncateCodePoints } from './truncate.ts';
