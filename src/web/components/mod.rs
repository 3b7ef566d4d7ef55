//! The page's components, one per file. They read and write one shared
//! `RwSignal<Scenario>` (provided by [`app::App`], read through [`crate::web::state`]) and call
//! the plain-Rust modules.

pub mod app;
pub mod calibrate_panel;
pub mod chart_canvas;
pub mod charts_panel;
pub mod commands_panel;
pub mod comparison_table;
pub mod context_field;
pub mod copy_button;
pub mod cpu_fields;
pub mod diagnose_panel;
pub mod embed_view;
pub mod gpu_guess;
pub mod headline;
pub mod headline_levers;
pub mod how_it_works;
pub mod import_panel;
pub mod inputs_form;
pub mod later_panels;
pub mod levers_panel;
pub mod live_cells;
pub mod machine_picker;
pub mod measure_panel;
pub mod model_picker;
pub mod model_table;
pub mod notices;
pub mod number_field;
pub mod option_list;
pub mod provenance;
pub mod quant_table;
pub mod search_box;
pub mod select_field;
pub mod share_panel;
pub mod sort_header;
pub mod split_devices;
