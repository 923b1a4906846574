"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// Type-checked against the built package as a CommonJS consumer (.d.cts).
var ap = require("applypatch");
var out = ap.apply('a\n', '-a\n+b');
var files = ap.applyFiles({}, '', { mode: 'codex' });
var err = undefined;
var code = 'context_not_found';
// @ts-expect-error: not a string
ap.apply(1, '');
void [out, files, err, code];
