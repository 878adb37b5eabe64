// A React client module ('use client', for Server Components): the build keeps the directive in
// the CommonJS twin of such an entry, and the setups check the tarball's entries carry it.

/** A module whose first statement, after comments, is the `'use client'` directive. */
export const CLIENT_MODULE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*['"]use client['"]/;
