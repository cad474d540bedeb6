//! Plain, kubectl-style tables (no borders, two spaces between columns) with comfy-table.

use comfy_table::{ContentArrangement, Table, presets};

/// A borderless table with the given header.
pub fn new_table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled)
        .force_no_tty()
        .set_header(header.to_vec());
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    table
}

/// The table as text, trailing spaces removed, ending with a newline.
pub fn finish(table: &Table) -> String {
    let mut text = table.trim_fmt();
    text.push('\n');
    text
}

/// Blanks a cell that repeats the value above it, so groups read as groups.
pub fn blank_if_same(previous: &mut String, current: &str) -> String {
    if previous == current {
        String::new()
    } else {
        *previous = current.to_string();
        current.to_string()
    }
}
