import { lazyPage, titleFromField, type WebModule } from '@db8/web/kit';
import './council.css';

const CouncilRoom = lazyPage(() => import('./CouncilRoom.tsx').then((m) => m.CouncilRoom));
const CreateCouncil = lazyPage(() => import('./CreateCouncil.tsx').then((m) => m.CreateCouncil));

// Council (seed 001): the five-role, three-round grid and its Final Packet.
export const council: WebModule = {
  protocol: 'council',
  RoomView: CouncilRoom,
  CreateForm: CreateCouncil,
  drivers: true,
  titleFromConfig: titleFromField('question'),
};
