// The shared protocol files load a library on first use with require(); esbuild bundles what they name and gives the
// page its own require for it, so the page's type-check needs only this much of it.
declare function require(id: string): unknown;
