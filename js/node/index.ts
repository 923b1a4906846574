// applypatch/node: the Node-only parts (they use node:fs), kept out of the
// main entry so that browsers and bundlers never pull them in.
export { createEditor, type EditorOptions } from './editor.js';
export { applyPatchToDirectory, type DirectoryOptions, type DirectoryResult, type DirectoryChange } from './apply.js';
