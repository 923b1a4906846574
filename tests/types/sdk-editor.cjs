"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// Type check (not run): the same through require's types.
var agents_core_1 = require("@openai/agents-core");
var applypatch_1 = require("applypatch");
var node_1 = require("applypatch/node");
(0, agents_core_1.applyPatchTool)({ editor: (0, applypatch_1.createMemoryEditor)(new Map([['a', 'b']])) });
(0, agents_core_1.applyPatchTool)({ editor: (0, node_1.createEditor)({ root: '.' }) });
