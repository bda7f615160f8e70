import { App, installProtocols } from '@db8/web';
import '@db8/web/styles.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { builtinProtocols } from '../src/protocols.ts';
import { webModules } from './modules.ts';

// The web app's composition root: the generic app with the built-in protocols' web modules.
installProtocols(webModules, builtinProtocols);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Pages and forms of protocol modules load on first use (protocols/module.tsx lazyPage). */}
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <App />
    </Suspense>
  </StrictMode>,
);
