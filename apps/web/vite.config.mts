import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web app (#50): built by `npm run build` into dist/web, served by the API process at APP_URL's path
// (/app by default) under a CSP without 'unsafe-inline': no inline script or style is emitted.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
