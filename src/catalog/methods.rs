/// The `method` values of data/measured.csv whose tok/s is a decode-only figure (not a whole
/// request's time, not an average over prompt lengths): what the calibration is fitted on, the
/// page's provenance shows and its Measured column holds. build.rs includes this file so the
/// page's copy carries only these rows.
pub const DECODE_ONLY_METHODS: &[&str] = &["llama-bench", "server", "mlx_lm"];
