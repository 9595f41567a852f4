import { createRoot } from 'react-dom/client';
import { App } from './app';
import './app.css';
import { BASE } from './router';

// The published sites' stylesheet and code colours, kept inside `.document-preview` (served by the API).
const documentStyle = document.createElement('link');
documentStyle.rel = 'stylesheet';
documentStyle.href = `${BASE}/document.css`;
document.head.append(documentStyle);

createRoot(document.getElementById('root')!).render(<App />);
