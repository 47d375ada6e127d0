import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/mini';
import { App } from '@/app/app';
import '@/app/app.css';

// The wire contract's schemas parse without compiling code at run time: the page's Content Security
// Policy allows no eval, and zod's probe for it would be reported as a violation.
zodConfig({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
