// The same tag rendered by Svelte before it is registered (a lazy chunk's case), to show what the
// element's README says of it: the object (`requestInit`) arrives as a property, which the
// element takes up when it upgrades, the function (`fetchSession`) as an attribute, which it
// ignores. The page tells what it found in a console warning the setup reads.
import { mount } from 'svelte';
import Late from './Late.svelte';

// biome-ignore lint/style/noNonNullAssertion: late.html has it
mount(Late, { target: document.getElementById('app')! });
await import('@form-embed/element/define');
const element = document.querySelector('form-embed');
console.warn(
  `registered late: requestInit ${typeof element?.requestInit}, fetchSession ${typeof element?.fetchSession}, attribute fetchsession ${element?.hasAttribute('fetchsession')}`,
);
