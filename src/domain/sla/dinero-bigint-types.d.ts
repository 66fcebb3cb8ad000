/**
 * Type declarations for dinero.js 2's bigint build under this project's `moduleResolution: node`
 * (node10), which ignores package.json `exports` and so cannot see `dinero.js/bigint` and
 * `dinero.js/bigint/currencies` by itself. Both re-export the package's own declaration files
 * unchanged, so the types are exactly the package's. At run time Node and jest resolve the two
 * subpaths through `exports` as usual; this file only informs the type checker.
 *
 * Remove it when tsconfig moves to `moduleResolution: node16`/`bundler`.
 */
declare module 'dinero.js/bigint' {
  export * from 'dinero.js/dist/esm/bigint/index';
}

declare module 'dinero.js/bigint/currencies' {
  export * from 'dinero.js/dist/esm/bigint/currencies/index';
}
