// The deliberation module's query keys, in one place (reads through @db8/web/kit's TanStack Query).

export const deliberationKeys = {
  /** A lessons search by its URL query. */
  lessons: (query: string) => ['deliberation', 'lessons', query] as const,
};
