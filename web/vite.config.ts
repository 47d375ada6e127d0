import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const src = fileURLToPath(new URL('./src', import.meta.url));
// The QA API's wire contract, shared with the API: the one module of api/ the app imports.
const contract = fileURLToPath(new URL('../api/http/contract.ts', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@contract': contract, '@': src } },
  // No source maps in the build: it is what production serves, and maps would publish the sources.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { port: 5173, strictPort: true },
});
