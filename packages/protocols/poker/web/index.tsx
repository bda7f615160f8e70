import { lazyPage, type WebModule } from '@db8/web/kit';
import { describePokerEntry } from './entry-words.ts';
import './poker.css';

const AdminAgents = lazyPage(() => import('./AdminAgents.tsx').then((m) => m.AdminAgents));
const AdminTable = lazyPage(() => import('./AdminTable.tsx').then((m) => m.AdminTable));
const AdminTables = lazyPage(() => import('./AdminTables.tsx').then((m) => m.AdminTables));
const CreateTable = lazyPage(() => import('./CreateTable.tsx').then((m) => m.CreateTable));
const TablePage = lazyPage(() => import('./TablePage.tsx').then((m) => m.TablePage));
const TablesList = lazyPage(() => import('./TablesList.tsx').then((m) => m.TablesList));

// Poker (seed 002): a room is a table; observers watch it at /tables/$id, admins run tables.
export const poker: WebModule = {
  protocol: 'poker',
  RoomView: ({ roomId }) => <TablePage tableId={roomId} />,
  routes: [
    { path: '/tables', page: () => <TablesList /> },
    { path: '/tables/$id', page: (p) => <TablePage key={p.id} tableId={p.id!} /> },
    { path: '/admin/tables', page: () => <AdminTables /> },
    { path: '/admin/tables/$id', page: (p) => <AdminTable key={p.id} tableId={p.id!} /> },
    { path: '/admin/agents', page: () => <AdminAgents /> },
  ],
  nav: [
    { href: '/tables', label: 'Tables' },
    { href: '/admin/tables', label: 'Table admin', admin: true },
  ],
  CreateForm: CreateTable,
  drivers: true,
  describeEntry: describePokerEntry,
};
