#!/usr/bin/env bash
# Trunk's pre-build hook (Trunk.toml): writes target/shell.html, the page's frame with the default
# scenario's headline computed by the native estimator (`tokbound shell`), which index.html inlines
# so the first paint needs no WebAssembly; and target/gpus-longtail.txt and target/cpus-longtail.txt,
# the page's copies of the long tail of GPUs and of the CPUs no machine names, which index.html
# copies beside the page for it to fetch on demand. The native build
# must not see the wasm build's settings.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p target
env -u CARGO_UNSTABLE_BUILD_STD -u CARGO_UNSTABLE_BUILD_STD_FEATURES -u RUSTC_BOOTSTRAP -u CARGO_BUILD_TARGET \
  cargo run --quiet --release --bin tokbound -- shell > target/shell.html.part
mv target/shell.html.part target/shell.html
env -u CARGO_UNSTABLE_BUILD_STD -u CARGO_UNSTABLE_BUILD_STD_FEATURES -u RUSTC_BOOTSTRAP -u CARGO_BUILD_TARGET \
  cargo run --quiet --release --bin tokbound -- shell long-tail > target/gpus-longtail.txt.part
mv target/gpus-longtail.txt.part target/gpus-longtail.txt
env -u CARGO_UNSTABLE_BUILD_STD -u CARGO_UNSTABLE_BUILD_STD_FEATURES -u RUSTC_BOOTSTRAP -u CARGO_BUILD_TARGET \
  cargo run --quiet --release --bin tokbound -- shell cpus-long-tail > target/cpus-longtail.txt.part
mv target/cpus-longtail.txt.part target/cpus-longtail.txt
