import { lazyPage, titleFromField, type WebModule } from '@db8/web/kit';
import { createElement } from 'react';
import './deliberation.css';

const CreateDeliberation = lazyPage(() =>
  import('./CreateDeliberation.tsx').then((m) => m.CreateDeliberation),
);
const DeliberationRoom = lazyPage(() => import('./DeliberationRoom.tsx').then((m) => m.DeliberationRoom));
const LessonsPage = lazyPage(() => import('./LessonsPage.tsx').then((m) => m.LessonsPage));

// Deliberation (seed 004): the room (topology graph, phase timeline, consensus per round, the gate,
// code versions), its create form, and lessons search over the server's full-text route.
export const deliberation: WebModule = {
  protocol: 'deliberation',
  RoomView: DeliberationRoom,
  routes: [{ path: '/deliberation/lessons', page: () => createElement(LessonsPage) }],
  nav: [{ href: '/deliberation/lessons', label: 'Lessons' }],
  CreateForm: CreateDeliberation,
  drivers: true,
  titleFromConfig: titleFromField('topic'),
};
