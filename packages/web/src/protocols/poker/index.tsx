import type { WebModule } from '../module.tsx';
import { AdminAgents } from './AdminAgents.tsx';
import { AdminTable } from './AdminTable.tsx';
import { AdminTables } from './AdminTables.tsx';
import { CreateTable } from './CreateTable.tsx';
import { TablePage } from './TablePage.tsx';
import { TablesList } from './TablesList.tsx';
import './poker.css';

// Poker (seed 002): a room is a table; observers watch it at /tables/:id, admins run tables.
export const poker: WebModule = {
  protocol: 'poker',
  RoomView: ({ roomId }) => <TablePage tableId={roomId} />,
  routes: [
    { path: '/tables', page: () => <TablesList /> },
    { path: '/tables/:id', page: (p) => <TablePage key={p.id} tableId={p.id!} /> },
    { path: '/admin/tables', page: () => <AdminTables /> },
    { path: '/admin/tables/:id', page: (p) => <AdminTable key={p.id} tableId={p.id!} /> },
    { path: '/admin/agents', page: () => <AdminAgents /> },
  ],
  nav: [
    { href: '/tables', label: 'Tables' },
    { href: '/admin/tables', label: 'Admin', admin: true },
  ],
  CreateForm: CreateTable,
  drivers: true,
};
