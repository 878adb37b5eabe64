// The manifest lists the public API only: private `#members` and the analyzer's unnamed guess at
// `dispatchEvent(new FormEmbedSessionEvent(...))` (the class JSDoc `@fires` names it) are dropped.
export default {
  // package.json already names the manifest; the analyzer must not rewrite it.
  packagejson: false,
  plugins: [
    {
      name: 'form-embed-public-api-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            if (declaration.members) {
              declaration.members = declaration.members.filter(
                (member) => member.privacy !== 'private' && !member.name.startsWith('#'),
              );
            }
            if (declaration.events) {
              declaration.events = declaration.events.filter((event) => event.name);
            }
          }
        }
      },
    },
  ],
};
