import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// As the element's README says: <form-embed> is not a Vue component.
export default defineConfig({
  plugins: [
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'form-embed' } } }),
  ],
});
