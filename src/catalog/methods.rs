/// The `method` values of data/measured.csv whose tok/s is a decode-only figure (not a whole
/// request's time, not an average over prompt lengths): what the calibration is fitted on, the
/// page's provenance shows and its Measured column holds. build.rs includes this file so the
/// page's copy carries only these rows.
pub const DECODE_ONLY_METHODS: &[&str] = &["llama-bench", "server", "mlx_lm"];

/// The llama.cpp build number in a `build` field of data/measured.csv, as digits: the `7938` of
/// `b7938` or `b7938 (e0c93af2a)`, the `5163` of `8cf427ff (5163)` or `5163`; empty for a commit
/// alone, a branch or another runtime's version. build.rs includes this file so the page's copy
/// of the column carries only the number.
pub fn build_digits(build: &str) -> &str {
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    build
        .split_whitespace()
        .map(|w| {
            w.strip_prefix('b')
                .or_else(|| w.strip_prefix('(').and_then(|w| w.strip_suffix(')')))
                .unwrap_or(w)
        })
        .find(|w| digits(w))
        .unwrap_or("")
}
