import { createRoot } from 'react-dom/client';
import { App } from './app';
import './app.css';
import { BASE } from './router';

// The published sites' code colours (the site renderer's `hl-*` classes), served by the API with the app.
const highlight = document.createElement('link');
highlight.rel = 'stylesheet';
highlight.href = `${BASE}/highlight.css`;
document.head.append(highlight);

createRoot(document.getElementById('root')!).render(<App />);
