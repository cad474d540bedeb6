//! The embedding of `dopol view`'s data on arbitrary strings: a manifest string, in the page's
//! data block, leaves nothing there but base64 lines (no character that could close the block
//! or open a comment in it), reads back to the same value, whole or cut between items; the
//! whole page around it has only its own two `</script>` ends.
#![no_main]

use dopol::render::view::data::read;
use dopol::render::view::{Mode, Part, write_page};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let value = json!({"name": text, "values": [text.as_str(), {"key": text.as_str()}]});
    let items: Vec<&str> = text.split(' ').collect();
    let mut page = Vec::new();
    let parts = [("view", Part::Whole(&value)), ("items", Part::Items(&items))];
    write_page(&mut page, Mode::View, &parts).expect("writing to a Vec");
    let page = String::from_utf8(page).expect("the page is UTF-8");
    let lower = page.to_ascii_lowercase();
    assert_eq!(lower.matches("</script").count(), 2);
    assert_eq!(lower.matches("<!--").count(), 0);
    let (_, rest) = page.split_once("id=\"dopol-data\">").expect("the data block");
    let (data, _) = rest.split_once("</script>").expect("its end");
    assert!(data.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=\n".contains(&b)));
    let back = read(data).expect("the block reads back");
    assert_eq!(back["view"], value);
    assert_eq!(back["items"], json!(items));
});
