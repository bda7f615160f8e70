import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Pages and forms of protocol modules load on first use (protocols/module.tsx lazyPage). */}
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <App />
    </Suspense>
  </StrictMode>,
);
