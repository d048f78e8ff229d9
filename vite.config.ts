/**
 * The browser demo (src/web/): `npm run demo` serves it, `npm run build:web` writes static
 * files to dist/web/ with relative asset paths (base './'), so any web server can serve it,
 * from a sub-directory too. The page imports the algebra, the ops table and the engine
 * directly (nothing is copied); it never imports Node-only modules.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./src/web/', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/web/', import.meta.url));

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  logLevel: 'info',
  server: { host: '127.0.0.1', port: 5173, strictPort: false, open: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
});
