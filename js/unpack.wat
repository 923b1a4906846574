;; The decoder of an engine's packed bytes (js/load.ts `unpack`; the packing:
;; scripts/build.mjs `packWasm`). js/load.ts holds this module assembled, and
;; scripts/build.mjs checks that it is this text (binaryen's parseText).
;;
;; An engine's .wasm travels inside the JavaScript as a string of printable
;; ASCII: its 87 most frequent bytes one character each, the others two
;; characters, a prefix (there are two) and a character that is not a prefix.
;; js/load.ts copies the string's characters (one byte each) and the tables
;; into this memory:
;;   [0, 384)   the byte a code stands for: a one-character code c at c, a
;;              two-character code at 128 * prefix + its second character;
;;   [384, 512) per character: its prefix number (1 or 2), 0 for the others.
(module
  (memory (export "memory") 1)
  ;; decode(from, to, out): the codes at [from, to) as bytes from `out` on;
  ;; returns where they end. Each character is read once and on its own: it
  ;; is the second of a code when the one before it is a prefix, since a
  ;; prefix is never a second character. Every character writes a byte; a
  ;; prefix's is overwritten by the next, as `out` moves on past the others
  ;; only. So no load depends on the one before it (docs/size.md).
  (func (export "decode") (param $i i32) (param $end i32) (param $o i32) (result i32)
    (local $c i32)
    (local $k i32)
    (local $before i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $i)))
        (local.set $k (i32.load8_u offset=384 (local.get $c)))
        (i32.store8
          (local.get $o)
          (i32.load8_u (i32.add (i32.shl (local.get $before) (i32.const 7)) (local.get $c))))
        (local.set $o (i32.add (local.get $o) (i32.eqz (local.get $k))))
        (local.set $before (local.get $k))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $o)))
