import type { WebModule } from '../module.tsx';
import { CouncilRoom } from './CouncilRoom.tsx';
import { CreateCouncil } from './CreateCouncil.tsx';
import './council.css';

// Council (seed 001): the five-role, three-round grid and its Final Packet.
export const council: WebModule = {
  protocol: 'council',
  RoomView: CouncilRoom,
  CreateForm: CreateCouncil,
  drivers: true,
};
