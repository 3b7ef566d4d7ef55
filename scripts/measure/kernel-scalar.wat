;; The bandwidth probe's kernel for browsers without WebAssembly SIMD: kernel.wat with 8-byte
;; loads (public/measure-worker.js embeds its assembly too).
(module
  (memory (export "mem") 1)
  (func (export "read") (param $len i32) (param $passes i32) (result i64)
    (local $p i32) (local $a i64) (local $b i64) (local $c i64) (local $d i64)
    (block $done
      (loop $pass
        (br_if $done (i32.eqz (local.get $passes)))
        (local.set $p (i32.const 0))
        (block $end
          (loop $step
            (br_if $end (i32.ge_u (local.get $p) (local.get $len)))
            (local.set $a (i64.add (local.get $a) (i64.load offset=0 (local.get $p))))
            (local.set $b (i64.add (local.get $b) (i64.load offset=8 (local.get $p))))
            (local.set $c (i64.add (local.get $c) (i64.load offset=16 (local.get $p))))
            (local.set $d (i64.add (local.get $d) (i64.load offset=24 (local.get $p))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (br $step)))
        (local.set $passes (i32.sub (local.get $passes) (i32.const 1)))
        (br $pass)))
    (i64.add (i64.add (local.get $a) (local.get $b)) (i64.add (local.get $c) (local.get $d)))))
