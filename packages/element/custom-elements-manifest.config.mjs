// The manifest lists the public API only: the analyzer lists private `#members` too, and they go.
export default {
  // package.json already names the manifest; the analyzer must not rewrite it.
  packagejson: false,
  plugins: [
    {
      name: 'form-embed-public-api-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            declaration.members = declaration.members?.filter(
              (member) => member.privacy !== 'private' && !member.name.startsWith('#'),
            );
          }
        }
      },
    },
  ],
};
