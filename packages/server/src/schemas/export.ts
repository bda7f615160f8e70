import { ViewerClassSchema } from '@db8/core';
import { z } from 'zod';

/** GET /v1/rooms/:id/export?as=…: the viewer class to export as (default: all the token may see). */
export const ExportQuerySchema = z.object({ as: ViewerClassSchema.optional() });
export type ExportQuery = z.infer<typeof ExportQuerySchema>;
