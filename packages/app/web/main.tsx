import { App, installProtocols } from '@db8/web';
import '@db8/web/styles.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { webModules } from './modules.ts';

// The web app's composition root: the generic app with the built-in protocols' web modules. The
// protocols' rules (create forms read their config schemas) load as their own chunk, beside the shell.
const { builtinProtocols } = await import('../src/protocols.ts');
installProtocols(webModules, builtinProtocols);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Pages and forms of protocol modules load on first use (protocols/module.tsx lazyPage). */}
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <App />
    </Suspense>
  </StrictMode>,
);
