import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@': src } },
  // No source maps in the build: it is what production serves, and maps would publish the sources.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { port: 5173, strictPort: true },
});
