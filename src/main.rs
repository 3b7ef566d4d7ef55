//! Browser entry point: installs the panic hook and mounts the app.

#[cfg(target_arch = "wasm32")]
fn main() {
    tokbound::web::start::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("tokbound-web runs in the browser: build it with `make dist` or `make serve`.");
    std::process::exit(1);
}
