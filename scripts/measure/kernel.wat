;; The memory-read kernel of the page's bandwidth probe (public/measure-worker.js embeds its
;; assembly; tests/e2e/measure.test.mjs checks that it is this file's).
;;
;; read(len, passes): reads bytes [0, len) of the module's own memory `passes` times, 64 bytes a
;; step in four 16-byte SIMD loads, and returns a sum of what it read so the loads cannot be left
;; out. len is a multiple of 64. kernel-scalar.wat is the same with 8-byte loads, for browsers
;; without WebAssembly SIMD.
(module
  (memory (export "mem") 1)
  (func (export "read") (param $len i32) (param $passes i32) (result i64)
    (local $p i32) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (block $done
      (loop $pass
        (br_if $done (i32.eqz (local.get $passes)))
        (local.set $p (i32.const 0))
        (block $end
          (loop $step
            (br_if $end (i32.ge_u (local.get $p) (local.get $len)))
            (local.set $a (i64x2.add (local.get $a) (v128.load offset=0 (local.get $p))))
            (local.set $b (i64x2.add (local.get $b) (v128.load offset=16 (local.get $p))))
            (local.set $c (i64x2.add (local.get $c) (v128.load offset=32 (local.get $p))))
            (local.set $d (i64x2.add (local.get $d) (v128.load offset=48 (local.get $p))))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (br $step)))
        (local.set $passes (i32.sub (local.get $passes) (i32.const 1)))
        (br $pass)))
    (local.set $a (i64x2.add (i64x2.add (local.get $a) (local.get $b)) (i64x2.add (local.get $c) (local.get $d))))
    (i64.add (i64x2.extract_lane 0 (local.get $a)) (i64x2.extract_lane 1 (local.get $a)))))
