// The manifest lists the public API only, and says what the analyzer cannot read from the source.
const ELEMENT_MODULE = 'src/form-embed-element.ts';

export default {
  // package.json already names the manifest; the analyzer must not rewrite it.
  packagejson: false,
  plugins: [
    {
      name: 'form-embed-public-api-only',
      packageLinkPhase({ customElementsManifest }) {
        keepPublicModules(customElementsManifest);
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            // The analyzer lists private `#members` too, and the protected `_members` the
            // element's classes share (form-embed-status.ts).
            declaration.members = declaration.members?.filter(
              (member) => member.privacy === undefined || member.privacy === 'public',
            );
            if (declaration.tagName === 'form-embed') describeElement(declaration);
          }
          describeExports(module);
        }
      },
    },
  ],
};

/** The modules a page imports (package.json's exports), whose exports are the public API. */
const ENTRY_MODULES = /^src\/(index|define|react|react-jsx|locales\/[\w-]+)\.ts$/;
/** The element's class chain: tools follow `inheritedFrom` to them. */
const CLASS_CHAIN = ['FormEmbedElement', 'FormEmbedProperties', 'FormEmbedStatus'];

/**
 * Leaves out what no entry exports (the analyzer reads every module: `make`, `fire`, the retry
 * policy, the development warnings), which tools would otherwise list as the element's API.
 */
function keepPublicModules(manifest) {
  const exported = (module) => (module.exports ?? []).map((entry) => entry.name);
  const entries = manifest.modules.filter((module) => ENTRY_MODULES.test(module.path));
  const names = new Set([...CLASS_CHAIN, ...entries.flatMap(exported)]);
  manifest.modules = manifest.modules.filter((module) => {
    if (ENTRY_MODULES.test(module.path)) return true;
    module.declarations = (module.declarations ?? []).filter((item) => names.has(item.name));
    module.exports = (module.exports ?? []).filter((entry) => names.has(entry.name));
    return module.declarations.length > 0;
  });
}

/**
 * What the analyzer merges or leaves out of `<form-embed>`: the static `messages` and the
 * instance one share a name, and it keeps only the static; the read-only `state` attribute is
 * written by the element, so no property declares it.
 */
function describeElement(element) {
  const isMessages = (member) => member.name === 'messages';
  const shared = element.members?.find((member) => isMessages(member) && member.static);
  if (shared && !element.members.some((member) => isMessages(member) && !member.static)) {
    element.members.push({
      kind: 'field',
      name: 'messages',
      privacy: 'public',
      type: { text: 'MessageOverrides | undefined' },
      description: "This element's messages, wholly or per key, over `FormEmbedElement.messages`.",
      inheritedFrom: shared.inheritedFrom,
    });
  }
  // Tied both ways, as the analyzer ties an attribute to its property, so that tools list it once.
  for (const attribute of element.attributes ?? []) {
    if (attribute.name === 'state') attribute.fieldName = 'state';
  }
  for (const member of element.members ?? []) {
    if (member.name === 'state') member.attribute = 'state';
  }
}

/**
 * `static define(tag)` reads to the analyzer as a definition of an anonymous class under the tag
 * `tag`; the real one is `define.ts`'s, of `form-embed`, which it does not see (a method call).
 * A re-export names the module that declares the class, not the one re-exporting it.
 */
function describeExports(module) {
  module.exports = (module.exports ?? []).filter(
    (entry) => !(entry.kind === 'custom-element-definition' && entry.name === 'tag'),
  );
  for (const entry of module.exports) {
    if (entry.name === 'FormEmbedElement' && entry.declaration.module === module.path) {
      if (module.path !== ELEMENT_MODULE) entry.declaration.module = ELEMENT_MODULE;
    }
  }
  if (module.path === 'src/define.ts') {
    module.exports.push({
      kind: 'custom-element-definition',
      name: 'form-embed',
      declaration: { name: 'FormEmbedElement', module: ELEMENT_MODULE },
    });
  }
}
