//! The block-style scanner against the general parser (`dopol::yaml::compare_fast_path_with_parser`):
//! wherever the scanner reads a document, its events must be the parser's, span for span, and
//! the parser must accept the document. A document the scanner leaves to the parser is fine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(document) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Err(disagreement) = dopol::yaml::compare_fast_path_with_parser(document) {
        panic!("{disagreement}");
    }
});
