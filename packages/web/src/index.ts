// @db8/web — the generic web app. The composition root (packages/app/web/main.tsx) installs its
// protocols' web modules and renders <App />.
export { App } from './App.tsx';
export type { WebModule } from './protocols/module.tsx';
export { installProtocols } from './protocols/registry.ts';
