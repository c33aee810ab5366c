import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/sanctum': { target: backend, changeOrigin: false },
      '/healthz': { target: backend, changeOrigin: false },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every role area, the app shell and the auth screens are lazy routes (src/app/router.tsx), so each
    // becomes its own chunk; the sign-in screen only pulls what it needs.
    chunkSizeWarningLimit: 600,
  },
});
