//! The `dopol` binary: everything lives in the library; this only tunes the allocator and exits
//! with the code the command returned.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    dopol::platform::tune_memory();
    dopol::platform::exit_after_command();
    std::process::exit(dopol::cli::main_exit_code());
}
