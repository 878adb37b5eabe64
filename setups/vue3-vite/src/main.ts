// A Vue 3 page, as the element's README tells a partner to write it: <form-embed> is registered
// before Vue renders, so Vue finds `requestInit` on the element and binds it as a property.
import '@form-embed/element/define';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
