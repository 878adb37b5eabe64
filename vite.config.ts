import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const demo = (page: string) => fileURLToPath(new URL(`./demo/${page}`, import.meta.url));

// The demo portal's pages. In development `demo/server.ts` serves them through Vite's middleware;
// the `@form-embed/source` condition makes `@form-embed/*` resolve to each package's TypeScript sources.
export default defineConfig({
  root: demo(''),
  appType: 'mpa',
  resolve: { conditions: ['@form-embed/source', ...defaultClientConditions] },
  build: {
    outDir: fileURLToPath(new URL('./dist/demo', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: demo('index.html'),
        several: demo('several.html'),
        lazy: demo('lazy.html'),
        hostile: demo('hostile.html'),
        'hostile-frame': demo('hostile-frame.html'),
      },
    },
  },
});
