import { lazyPage, type WebModule } from '../module.tsx';
import './deliberation.css';

const DeliberationRoom = lazyPage(() => import('./DeliberationRoom.tsx').then((m) => m.DeliberationRoom));

// Deliberation (seed 004): the phase timeline per round, consensus per round, the gate, code versions.
export const deliberation: WebModule = {
  protocol: 'deliberation',
  RoomView: DeliberationRoom,
  drivers: true,
};
