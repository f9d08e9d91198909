// The part of picomatch (which ships no types) that list_files uses.
declare module 'picomatch' {
  function picomatch(glob: string, options?: { dot?: boolean }): (path: string) => boolean;
  export = picomatch;
}
