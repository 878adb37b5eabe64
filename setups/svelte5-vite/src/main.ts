// A Svelte 5 page, as the element's README tells a partner to write it: <form-embed> is
// registered before Svelte renders, so Svelte finds `requestInit` on the element and sets it as a
// property.
import '@form-embed/element/define';
import { mount } from 'svelte';
import App from './App.svelte';

// biome-ignore lint/style/noNonNullAssertion: index.html has it
mount(App, { target: document.getElementById('app')! });
