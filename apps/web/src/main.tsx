// First: before any module builds a schema (lib/zod-config.ts).
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
