import type { ReactNode } from 'react';
import { match } from '../../lib/router.tsx';
import { AdminAgents } from './AdminAgents.tsx';
import { AdminTable } from './AdminTable.tsx';
import { AdminTables } from './AdminTables.tsx';
import { TablePage } from './TablePage.tsx';
import { TablesList } from './TablesList.tsx';

/** The poker pages by path, or null when the path is not one of them (App.tsx tries this first). */
export function pokerPage(path: string): ReactNode | null {
  if (path === '/tables') return <TablesList />;
  if (path === '/admin/tables') return <AdminTables />;
  if (path === '/admin/agents') return <AdminAgents />;
  let m = match('/admin/tables/:id', path);
  if (m) return <AdminTable key={m.id} tableId={m.id!} />;
  m = match('/tables/:id', path);
  if (m) return <TablePage key={m.id} tableId={m.id!} />;
  return null;
}
