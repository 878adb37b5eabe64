import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// Two pages: index.html registers the tag before Svelte renders, as the element's README says;
// late.html after, to show what Svelte then does with an object and a function.
export default defineConfig({
  plugins: [svelte()],
  build: { rollupOptions: { input: ['index.html', 'late.html'] } },
});
