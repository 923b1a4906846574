// The Examples menu: one realistic case per mode, and cases that fail on
// purpose so the error display can be seen. The browser test types these same
// texts into the panes and checks the outputs.

const cartJs = `export function total(items) {
  let sum = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}

export function isEmpty(items) {
  return items.length === 0;
}
`;

const cartPy = `class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(item.price for item in self.items)
`;

export const examples = [
  {
    id: 'strict-diff',
    title: 'Strict: a V4A diff with two changes',
    mode: 'strict',
    files: [{ path: 'src/cart.js', text: cartJs }],
    patch: `@@
-export function total(items) {
+export function total(items, taxRate = 0) {
   let sum = 0;
   for (const item of items) {
-    sum += item.price;
+    sum += item.price * item.quantity;
   }
-  return sum;
+  return sum * (1 + taxRate);
 }
`,
  },
  {
    id: 'codex-files',
    title: 'Codex: one patch adds, moves and deletes files',
    mode: 'codex',
    files: [
      { path: 'src/cart.js', text: cartJs },
      {
        path: 'src/format.js',
        text: `export function formatPrice(cents) {
  return '€' + (cents / 100).toFixed(2);
}
`,
      },
      { path: 'README.md', text: '# shop\n\nA small shop.\n' },
    ],
    patch: `*** Begin Patch
*** Add File: src/money.js
+export function formatMoney(cents, currency = 'EUR') {
+  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
+}
*** Update File: src/cart.js
*** Move to: src/checkout/cart.js
@@
+import { formatMoney } from '../money.js';
+
 export function total(items) {
@@ export function isEmpty(items) {
-  return items.length === 0;
+  return !items || items.length === 0;
 }
+
+export function label(items) {
+  return formatMoney(total(items));
+}
*** Delete File: src/format.js
*** End Patch
`,
  },
  {
    id: 'blocks',
    title: 'Edit blocks: one exact, one with its indentation lost',
    mode: 'blocks',
    files: [{ path: 'cart.py', text: cartPy }],
    patch: `cart.py
<<<<<<< SEARCH
    def add(self, item):
        self.items.append(item)
=======
    def add(self, item, quantity=1):
        self.items.extend([item] * quantity)
>>>>>>> REPLACE

cart.py
<<<<<<< SEARCH
def total(self):
    return sum(item.price for item in self.items)
=======
def total(self, discount=0):
    subtotal = sum(item.price for item in self.items)
    return max(subtotal - discount, 0)
>>>>>>> REPLACE
`,
  },
  {
    id: 'unified-git',
    title: 'Unified diff: git diff output over two files',
    mode: 'unified',
    files: [
      {
        path: 'src/greet.py',
        text: `import sys


def greet(name):
    print("Hi " + name)


def main():
    greet(sys.argv[1])
`,
      },
      { path: 'NOTES.md', text: 'Remember to say hello.\n' },
    ],
    patch: `diff --git a/src/greet.py b/src/greet.py
index 1111111..2222222 100644
--- a/src/greet.py
+++ b/src/greet.py
@@ -1,6 +1,6 @@
 import sys
 
 
 def greet(name):
-    print("Hi " + name)
+    print(f"Hello, {name}!")
 
diff --git a/NOTES.md b/docs/NOTES.md
similarity index 100%
rename from NOTES.md
rename to docs/NOTES.md
`,
  },
  {
    id: 'fail-stale',
    title: 'Fails on purpose: the diff expects a line the file no longer has',
    mode: 'strict',
    files: [
      {
        path: 'config.py',
        text: `DEFAULTS = {
    "host": "localhost",
    "port": 8080,
    "timeout": 30,
    "retries": 3,
}
`,
      },
    ],
    patch: `@@ DEFAULTS = {
     "port": 8080,
-    "timeout": 10,
+    "timeout": 60,
     "retries": 3,
`,
  },
  {
    id: 'fail-ambiguous',
    title: 'Fails on purpose: the same lines in two places',
    mode: 'strict',
    files: [
      {
        path: 'store.py',
        text: `def find_user(id):
    return None

def find_order(id):
    return None
`,
      },
    ],
    patch: `@@
-    return None
+    return []
`,
  },
];

export const defaultExample = examples[0];
