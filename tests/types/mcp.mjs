var __awaiter =
  (this && this.__awaiter) ||
  ((thisArg, _arguments, P, generator) => {
    function adopt(value) {
      return value instanceof P
        ? value
        : new P((resolve) => {
            resolve(value);
          });
    }
    return new (P || (P = Promise))((resolve, reject) => {
      function fulfilled(value) {
        try {
          step(generator.next(value));
        } catch (e) {
          reject(e);
        }
      }
      function rejected(value) {
        try {
          step(generator['throw'](value));
        } catch (e) {
          reject(e);
        }
      }
      function step(result) {
        result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected);
      }
      step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
  });
var __generator =
  (this && this.__generator) ||
  ((thisArg, body) => {
    var _ = {
        label: 0,
        sent: () => {
          if (t[0] & 1) throw t[1];
          return t[1];
        },
        trys: [],
        ops: [],
      },
      f,
      y,
      t,
      g = Object.create((typeof Iterator === 'function' ? Iterator : Object).prototype);
    return (
      (g.next = verb(0)),
      (g['throw'] = verb(1)),
      (g['return'] = verb(2)),
      typeof Symbol === 'function' &&
        (g[Symbol.iterator] = function () {
          return this;
        }),
      g
    );
    function verb(n) {
      return (v) => step([n, v]);
    }
    function step(op) {
      if (f) throw new TypeError('Generator is already executing.');
      while ((g && ((g = 0), op[0] && (_ = 0)), _))
        try {
          if (
            ((f = 1),
            y &&
              (t = op[0] & 2 ? y['return'] : op[0] ? y['throw'] || ((t = y['return']) && t.call(y), 0) : y.next) &&
              !(t = t.call(y, op[1])).done)
          )
            return t;
          if (((y = 0), t)) op = [op[0] & 2, t.value];
          switch (op[0]) {
            case 0:
            case 1:
              t = op;
              break;
            case 4:
              _.label++;
              return { value: op[1], done: false };
            case 5:
              _.label++;
              y = op[1];
              op = [0];
              continue;
            case 7:
              op = _.ops.pop();
              _.trys.pop();
              continue;
            default:
              if (!((t = _.trys), (t = t.length > 0 && t[t.length - 1])) && (op[0] === 6 || op[0] === 2)) {
                _ = 0;
                continue;
              }
              if (op[0] === 3 && (!t || (op[1] > t[0] && op[1] < t[3]))) {
                _.label = op[1];
                break;
              }
              if (op[0] === 6 && _.label < t[1]) {
                _.label = t[1];
                t = op;
                break;
              }
              if (t && _.label < t[2]) {
                _.label = t[2];
                _.ops.push(op);
                break;
              }
              if (t[2]) _.ops.pop();
              _.trys.pop();
              continue;
          }
          op = body.call(thisArg, _);
        } catch (e) {
          op = [6, e];
          y = 0;
        } finally {
          f = t = 0;
        }
      if (op[0] & 5) throw op[1];
      return { value: op[0] ? op[1] : void 0, done: true };
    }
  });

// Type check (not run): applypatch/mcp's server is the MCP SDK's, and the tool
// definitions and handlers fit the Vercel AI SDK's tools, through the package's published types.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { jsonSchema, tool } from 'ai';
import { toolDefinitions } from 'applypatch';
import { createServer } from 'applypatch/mcp';
import { createToolHandlers } from 'applypatch/node';

var server = createServer({ root: '.', readOnly: true });
var connected = server.connect(new StdioServerTransport());
var handlers = createToolHandlers({ root: '.' });
var result = handlers.edit_file({ path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] });
var asMcp = () =>
  __awaiter(void 0, void 0, void 0, function () {
    return __generator(this, (_a) => [2 /*return*/, handlers.read_file({ path: 'a.txt' })]);
  });
var names = toolDefinitions.map((d) => d.name);
var tools = Object.fromEntries(
  toolDefinitions.map((d) => [
    d.name,
    tool({
      description: d.description,
      inputSchema: jsonSchema(d.inputSchema),
      execute: (input) =>
        __awaiter(void 0, void 0, void 0, function () {
          return __generator(this, (_a) => [2 /*return*/, handlers[d.name](input)]);
        }),
    }),
  ]),
);

export { asMcp, connected, names, result, tools };
