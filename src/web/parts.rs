//! The parts of the release page's module beyond the first (docs/performance.md, "The first
//! view"). Where the page is split (`--cfg tokbound_split`, set by scripts/webenv for `make
//! dist`), a function marked `#[wasm_split(part, fallible)]` lives in that part, and calling it
//! fetches the part first: the call is `async`, and fails with [`Unloaded`] when the part cannot
//! be fetched. Elsewhere (tests, lints, a debug build) the same functions are plain calls, and
//! [`in_part!`](crate::in_part) hides the difference.
//!
//! The parts: `app` (src/web/start.rs: the Leptos app, tables and charts), `more` (the panels
//! below the tables, [`crate::web::components::later_panels`]), `tools` (the readers,
//! [`crate::web::tools`]) and `tail` (the reader of the long tail of GPUs,
//! [`crate::web::long_tail`]).

/// A call into a part of the module: awaited where the page is split (the part may have to be
/// fetched first), a plain call elsewhere. Gives the function's `Result<_, Unloaded>`.
#[macro_export]
macro_rules! in_part {
    ($call:expr) => {{
        #[cfg(tokbound_split)]
        let answer = $call.await;
        #[cfg(not(tokbound_split))]
        let answer = $call;
        answer
    }};
}

/// A part of the module could not be fetched.
#[derive(Debug)]
pub struct Unloaded;

impl std::fmt::Display for Unloaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this part of the page could not be loaded: offline, or the site changed since this page was opened")
    }
}

#[cfg(tokbound_split)]
impl From<wasm_split_helpers::SplitLoaderError> for Unloaded {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        Unloaded
    }
}
