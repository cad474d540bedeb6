//! The embedding of `dopol view`'s data on arbitrary strings: a manifest string, embedded in the
//! page's JSON block, can neither close the block nor open a comment in it (no `<`, `>`, `&`,
//! U+2028 or U+2029 is left), and parses back to the same string; the whole page around it has
//! only its own two `</script>` ends.
#![no_main]

use dopol::render::view::{Mode, embed, write_page};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let value = json!({"name": text, "values": [text.as_str(), {"key": text.as_str()}]});
    let json = serde_json::to_vec(&value).expect("a JSON value serializes");
    let mut embedded = Vec::new();
    embed(&json, &mut embedded).expect("writing to a Vec");
    let embedded = String::from_utf8(embedded).expect("escapes keep UTF-8");
    for bad in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
        assert!(!embedded.contains(bad), "{bad:?} left in {embedded}");
    }
    let back: Value = serde_json::from_str(&embedded).expect("the embedding is JSON");
    assert_eq!(back, value);
    let mut page = Vec::new();
    write_page(&mut page, Mode::View, &[("view", &value)]).expect("writing to a Vec");
    let page = String::from_utf8(page).expect("the page is UTF-8").to_ascii_lowercase();
    assert_eq!(page.matches("</script").count(), 2);
    assert_eq!(page.matches("<!--").count(), 0);
});
