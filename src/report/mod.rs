//! What the page and the CLI say, as plain data: the headline's sentences and the notes
//! ([`views`]), the machine, format and model tables with their CSV ([`views`], [`runnable`]),
//! the measured runs beside an estimate, a user's own runs fitted ([`calibrate`]), a measured
//! bandwidth put into a scenario ([`measure`]) and an imported model applied ([`imported`]); how a sentence names a key, as links write it or as
//! the page's field ([`naming`]).

pub mod calibrate;
pub mod commands;
pub mod contribute;
pub mod diagnose;
pub mod energy;
pub mod imported;
pub mod levers;
pub mod measure;
pub mod naming;
pub mod peers;
pub mod runnable;
pub mod shell;
pub mod views;
