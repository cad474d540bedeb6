//! Plain, kubectl-style tables (no borders, two spaces between columns) sized to a width.
//!
//! Columns are of two sorts: identifiers (listener, route rule, kind, rule key, policy), which
//! are never cut because a cut name can no longer be searched for, and free text (values,
//! messages, reasons), which shares the room the identifiers leave and is cut with `…` when it
//! does not fit. When the identifiers leave too little room, free text goes on an indented line
//! of its own under each row, cut to the width; when the identifiers alone are wider than the
//! room, free text keeps a small minimum and the row is as wide as it has to be.

use rayon::prelude::*;
use std::borrow::Cow;
use std::io;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The fewest columns a free-text column keeps beside the identifiers (fewer when its text is
/// shorter); with less room it goes on lines of its own.
const MIN_TEXT_WIDTH: usize = 32;

/// The indentation of free text on lines of its own.
const STACK_INDENT: &str = "    ";

/// Spaces between two columns.
const GAP: usize = 2;

/// The size of a block of a table's text ([`Table`]).
const BLOCK_BYTES: usize = 1 << 20;

/// Rows one task measures or lays out.
const ROWS_PER_TASK: usize = 2048;

/// Rows one task lays out before its text is written: a quarter of [`ROWS_PER_TASK`], as the
/// laid-out text is held until written (the padded rows of `overridden` on the 49 MB benchmark
/// are about a megabyte per thousand).
const ROWS_PER_WRITE: usize = ROWS_PER_TASK / 4;

/// Tasks laid out before their text is written (a bound on the text held at once). Two keep
/// both cores of a small machine busy: on the 49 MB benchmark, eight tasks of 2,048 rows held
/// 25 MB of `overridden`'s text at a time, two held 6 MB, and two of 512 rows hold about 1 MB.
const TASKS_PER_BATCH: usize = 2;

/// How a table is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The widest a line may be; `None` for no limit (free text is then never cut).
    pub width: Option<usize>,
    /// `-o wide`: every row names its whole path instead of leaving repeats blank.
    pub wide: bool,
}

impl Layout {
    /// No width limit, repeats left blank.
    pub const UNLIMITED: Layout = Layout {
        width: None,
        wide: false,
    };
}

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// A name that is never cut.
    Id(&'static str),
    /// A name that groups the rows below it (written on a group's first row only). When the
    /// table does not fit, group columns leave it and each group gets a heading line instead
    /// (`listener http, route rule shop/cart#checkout`).
    Group(&'static str),
    /// Free text, cut with `…` to fit the width.
    Text(&'static str),
}

impl Column {
    fn header(self) -> &'static str {
        match self {
            Column::Id(h) | Column::Group(h) | Column::Text(h) => h,
        }
    }
}

/// A table being filled. Cells may hold several lines (`\n`).
///
/// Cells are kept end to end in blocks of text and the end of each cell in its block, not as a
/// `String` each: big reports (every path of a cluster dump) have millions of cells, and a
/// separate allocation per cell doubled what the table held. A block is filled up to its size
/// and never grown: one string grown by doubling held its old and its new copy at once, up to
/// three times its text at that moment (`overridden -o wide` on 49 MB has 70 MB of cells).
///
/// The last column's cells may instead be *late* ([`Table::add_row_late`]): only their width is
/// kept, and their text is written again when the table is ([`write_late`]) by the caller,
/// from what it keeps of the row (`overridden`'s place cells are most of its text: the ids of
/// up to four paths, kept as `PathId`s).
#[derive(Clone, Debug)]
pub struct Table {
    columns: Vec<Column>,
    /// Every cell's text, row after row, in blocks of up to [`BLOCK_BYTES`] (or of one longer
    /// cell).
    blocks: Vec<String>,
    /// Per block: the number of its first cell (a big table has a few dozen blocks and
    /// millions of cells, so a cell's block is searched for, not stored with it).
    block_starts: Vec<u32>,
    /// Per cell, `columns.len()` per row: its end in its block (it starts where the cell before
    /// ends when that one is in the same block, else at the block's start).
    ends: Vec<u32>,
    /// For a table whose rows were added late: the widest line of each row's last cell.
    late_widths: Vec<u32>,
}

/// Writes the text of row `row`'s late cell into the buffer (the text it had when the row
/// was added).
pub type LateCells<'f> = &'f (dyn Fn(usize, &mut String) + Sync);

impl Table {
    /// A borderless table with these columns.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            blocks: Vec::new(),
            block_starts: Vec::new(),
            ends: Vec::new(),
            late_widths: Vec::new(),
        }
    }

    /// Adds a row whose last cell is `last` measured, not kept: `cells` are the others. A
    /// table is written with [`write_late`] once it has such rows, and all its rows are.
    pub fn add_row_late<S: AsRef<str>>(&mut self, mut cells: Vec<S>, last: &str) {
        debug_assert_eq!(
            self.late_widths.len(),
            self.row_count(),
            "every row is late"
        );
        cells.truncate(self.columns.len().saturating_sub(1));
        self.add_row(cells);
        let widest = last.lines().map(width_of).max().unwrap_or(0);
        self.late_widths
            .push(u32::try_from(widest).unwrap_or(u32::MAX));
    }

    /// The index of the late column, when rows were added late.
    fn late_column(&self) -> Option<usize> {
        (!self.late_widths.is_empty()).then(|| self.columns.len() - 1)
    }

    /// Adds a row (one cell per column; missing cells are empty, extra ones ignored).
    pub fn add_row<S: AsRef<str>>(&mut self, cells: Vec<S>) {
        let mut cells = cells.iter();
        for _ in 0..self.columns.len() {
            let cell = cells.next().map_or("", AsRef::as_ref);
            let block = match self.blocks.last_mut() {
                Some(block) if block.capacity() - block.len() >= cell.len() => block,
                _ => {
                    // Small tables stay small: blocks grow from 4 KiB to their full size.
                    let last = self.blocks.last().map_or(2 << 10, String::capacity);
                    let size = (2 * last).min(BLOCK_BYTES).max(cell.len());
                    self.blocks.push(String::with_capacity(size));
                    self.block_starts.push(self.ends.len() as u32);
                    self.blocks.last_mut().expect("just pushed")
                }
            };
            block.push_str(cell);
            let end = u32::try_from(block.len()).expect("a table cell is under 4 GiB");
            self.ends.push(end);
        }
    }

    /// How many rows were added.
    pub fn row_count(&self) -> usize {
        self.ends.len().checked_div(self.columns.len()).unwrap_or(0)
    }

    /// Cell `column` of row `row`.
    fn cell(&self, row: usize, column: usize) -> &str {
        let index = row * self.columns.len() + column;
        let block = self
            .block_starts
            .partition_point(|&first| first as usize <= index)
            - 1;
        let start = if index > self.block_starts[block] as usize {
            self.ends[index - 1]
        } else {
            0
        };
        &self.blocks[block][start as usize..self.ends[index] as usize]
    }

    /// The widest line of each shown column's header and cells (rows measured in parallel
    /// chunks: a cluster dump's report has millions of cells).
    fn natural_widths(&self, shown: &[usize]) -> Vec<usize> {
        let header: Vec<usize> = shown
            .iter()
            .map(|&i| width_of(self.columns[i].header()))
            .collect();
        let rows: Vec<usize> = (0..self.row_count()).collect();
        rows.par_chunks(ROWS_PER_TASK)
            .map(|rows| {
                let mut widths = vec![0; shown.len()];
                for &row in rows {
                    for (width, &i) in widths.iter_mut().zip(shown) {
                        for line in self.cell(row, i).lines() {
                            *width = (*width).max(width_of(line));
                        }
                    }
                }
                widths
            })
            .reduce(
                || header.clone(),
                |a, b| a.iter().zip(&b).map(|(x, y)| *x.max(y)).collect(),
            )
            .into_iter()
            .zip(shown)
            .map(|(width, &i)| match self.late_column() {
                Some(late) if late == i => {
                    let widest = self.late_widths.iter().max().copied().unwrap_or(0);
                    width.max(widest as usize)
                }
                _ => width,
            })
            .collect()
    }

    /// The width of each shown column within `limit`, and whether free text goes on lines of
    /// its own: identifiers keep their width; free-text columns share what is left, narrow
    /// ones first. When that leaves a free-text column less than its minimum but the
    /// identifiers fit, free text is stacked under each row, indented, with the whole width;
    /// when the identifiers alone do not fit, free text keeps its minimum and the row overflows.
    fn widths(&self, shown: &[usize], limit: Option<usize>) -> (Vec<usize>, bool) {
        let mut widths = self.natural_widths(shown);
        let Some(limit) = limit else {
            return (widths, false);
        };
        let gaps = GAP * widths.len().saturating_sub(1);
        if widths.iter().sum::<usize>() + gaps <= limit {
            return (widths, false);
        }
        let is_text = |i: usize| matches!(self.columns[shown[i]], Column::Text(_));
        let ids: Vec<usize> = (0..widths.len()).filter(|&i| !is_text(i)).collect();
        let fixed: usize = ids.iter().map(|&i| widths[i]).sum();
        let mut text: Vec<usize> = (0..widths.len()).filter(|&i| is_text(i)).collect();
        text.sort_by_key(|&i| widths[i]);
        let mut room = limit.saturating_sub(fixed + gaps);
        let mut left = text.len();
        let mut starved = false;
        for &i in &text {
            let share = room / left;
            let floor = MIN_TEXT_WIDTH.min(widths[i]);
            starved |= share < floor;
            widths[i] = widths[i].min(share).max(floor);
            room = room.saturating_sub(widths[i]);
            left -= 1;
        }
        let id_line = fixed + GAP * ids.len().saturating_sub(1);
        if starved && !ids.is_empty() && id_line <= limit {
            for &i in &text {
                widths[i] = limit.saturating_sub(STACK_INDENT.len()).max(1);
            }
            return (widths, true);
        }
        (widths, false)
    }
}

/// The display width of `text`: its length when it is printable ASCII (nearly every cell; the
/// check is much cheaper than a width lookup per character), else what `unicode-width` says.
fn width_of(text: &str) -> usize {
    if text.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        text.len()
    } else {
        text.width()
    }
}

/// `text` cut to `width` columns, ending with `…` when cut.
pub fn truncate(text: &str, width: usize) -> Cow<'_, str> {
    if width_of(text) <= width {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    Cow::Owned(out)
}

/// The table as text within `width` (`None`: no limit), trailing spaces removed, ending with a
/// newline.
pub fn finish(table: &Table, width: Option<usize>) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail, and every piece written is a `str`.
    let _ = write(table, width, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the table as [`finish`] returns it, a line at a time.
pub fn write(table: &Table, width: Option<usize>, out: &mut dyn io::Write) -> io::Result<()> {
    write_late(table, width, out, &|_, _| {})
}

/// [`write`] for a table whose rows were added late: `late` writes each row's last cell.
pub fn write_late(
    table: &Table,
    width: Option<usize>,
    out: &mut dyn io::Write,
    late: LateCells<'_>,
) -> io::Result<()> {
    let all: Vec<usize> = (0..table.columns.len()).collect();
    let (widths, stacked) = table.widths(&all, width);
    let fits = !stacked
        && width.is_none_or(|w| {
            widths.iter().sum::<usize>() + GAP * widths.len().saturating_sub(1) <= w
        });
    let grouped = |i: usize| matches!(table.columns[i], Column::Group(_));
    if fits || !all.iter().any(|&i| grouped(i)) {
        return write_rows(table, &all, (&widths, stacked), (false, late), out);
    }
    // The table without its group columns, a heading line before each group instead.
    let shown: Vec<usize> = all.into_iter().filter(|&i| !grouped(i)).collect();
    let (widths, stacked) = table.widths(&shown, width);
    write_rows(table, &shown, (&widths, stacked), (true, late), out)
}

/// Writes the header and rows of the `shown` columns at `widths` (`stacked`: free text on lines
/// of its own); with `headings`, a heading line for each row whose group cells are not empty;
/// `late` writes the late cells.
///
/// Rows are laid out in parallel, a batch of chunks at a time, and written in order: each row's
/// text depends only on the widths, and a batch bounds what is held besides the table.
fn write_rows(
    table: &Table,
    shown: &[usize],
    (widths, stacked): (&[usize], bool),
    (headings, late): (bool, LateCells<'_>),
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let layout = RowLayout {
        table,
        shown,
        widths,
        stacked,
        headings,
        header: shown.iter().map(|&i| table.columns[i].header()).collect(),
        late,
    };
    let mut text = Vec::new();
    layout.write_row(None, &mut String::new(), &mut text);
    out.write_all(&text)?;
    let rows: Vec<usize> = (0..table.row_count()).collect();
    for batch in rows.chunks(ROWS_PER_WRITE * TASKS_PER_BATCH) {
        let texts: Vec<Vec<u8>> = batch
            .par_chunks(ROWS_PER_WRITE)
            .map(|rows| {
                let (mut text, mut line) = (Vec::new(), String::new());
                for &row in rows {
                    layout.write_row(Some(row), &mut line, &mut text);
                }
                text
            })
            .collect();
        for text in texts {
            out.write_all(&text)?;
        }
    }
    Ok(())
}

/// How [`write_rows`] lays out one row.
struct RowLayout<'t> {
    table: &'t Table,
    shown: &'t [usize],
    widths: &'t [usize],
    stacked: bool,
    headings: bool,
    header: Vec<&'static str>,
    late: LateCells<'t>,
}

impl RowLayout<'_> {
    /// Whether shown column `k` is on the row's own lines (not stacked under it).
    fn inline(&self, k: usize) -> bool {
        !self.stacked || !matches!(self.table.columns[self.shown[k]], Column::Text(_))
    }

    /// Appends row `row` (`None`: the header) to `out`, each line built in `line` (a buffer the
    /// caller reuses from row to row).
    fn write_row(&self, row: Option<usize>, line: &mut String, out: &mut Vec<u8>) {
        let late_column = self.table.late_column();
        let mut late = String::new();
        if let (Some(row), Some(_)) = (row, late_column) {
            (self.late)(row, &mut late);
        }
        let cell = |k: usize| match row {
            None => self.header[k],
            Some(_) if late_column == Some(self.shown[k]) => late.as_str(),
            Some(row) => self.table.cell(row, self.shown[k]),
        };
        if let Some(row) = row.filter(|_| self.headings) {
            write_heading(self.table, row, out);
        }
        let lines = (0..self.shown.len())
            .filter(|&k| self.inline(k))
            .map(|k| cell(k).lines().count())
            .max()
            .unwrap_or(1);
        for n in 0..lines.max(1) {
            line.clear();
            for (k, width) in self.widths.iter().enumerate() {
                if !self.inline(k) {
                    continue;
                }
                let text = truncate(cell(k).lines().nth(n).unwrap_or(""), *width);
                line.push_str(&text);
                line.extend(std::iter::repeat_n(' ', width - width_of(&text) + GAP));
            }
            out.extend_from_slice(line.trim_end().as_bytes());
            out.push(b'\n');
        }
        for (k, width) in self.widths.iter().enumerate() {
            if self.inline(k) {
                continue;
            }
            for text in cell(k).lines().filter(|t| !t.is_empty()) {
                out.extend_from_slice(STACK_INDENT.as_bytes());
                out.extend_from_slice(truncate(text, *width).trim_end().as_bytes());
                out.push(b'\n');
            }
        }
    }
}

/// The heading line of a row in a table written without its group columns: each non-empty
/// group cell after its column's name (`listener http, route rule shop/cart#checkout`).
fn write_heading(table: &Table, row: usize, out: &mut Vec<u8>) {
    let mut first = true;
    for (i, column) in table.columns.iter().enumerate() {
        let cell = table.cell(row, i);
        if !matches!(column, Column::Group(_)) || cell.is_empty() {
            continue;
        }
        if !first {
            out.extend_from_slice(b", ");
        }
        first = false;
        out.extend_from_slice(column.header().to_lowercase().as_bytes());
        out.push(b' ');
        out.extend_from_slice(cell.as_bytes());
    }
    if !first {
        out.push(b'\n');
    }
}

/// The table as text within `width`, every line after `indent` (which counts in the width).
pub fn finish_indented(table: &Table, width: Option<usize>, indent: &str) -> String {
    let inner = width.map(|w| w.saturating_sub(width_of(indent)));
    let mut out = String::new();
    for line in finish(table, inner).lines() {
        out.push_str(indent);
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Blanks a cell that repeats the value above it, so groups read as groups; with `-o wide`
/// every cell is kept, so each line can be found with `grep`.
pub fn blank_if_same(layout: Layout, previous: &mut String, current: &str) -> String {
    if previous == current && !layout.wide {
        String::new()
    } else {
        *previous = current.to_string();
        current.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new(vec![Column::Id("NAME"), Column::Text("VALUE")]);
        table.add_row(vec!["a-long-name", "0123456789abcdefghijklmnopqrstuvwxyz"]);
        table.add_row(vec!["b", "short"]);
        table
    }

    #[test]
    fn free_text_is_cut_to_the_width_and_names_are_not() {
        assert_eq!(
            finish(&sample(), Some(46)),
            "NAME         VALUE\na-long-name  0123456789abcdefghijklmnopqrstuv…\nb            short\n"
        );
        assert_eq!(
            finish(&sample(), None),
            "NAME         VALUE\na-long-name  0123456789abcdefghijklmnopqrstuvwxyz\nb            short\n"
        );
        // Too little room beside the names: the text goes under its row.
        assert_eq!(
            finish(&sample(), Some(20)),
            "NAME\n    VALUE\na-long-name\n    0123456789abcde…\nb\n    short\n"
        );
        // Names wider than the room: text keeps its minimum, the line overflows.
        assert_eq!(
            finish(&sample(), Some(8)).lines().nth(1),
            Some("a-long-name  0123456789abcdefghijklmnopqrstu…")
        );
    }

    #[test]
    fn group_columns_become_headings_when_the_table_does_not_fit() {
        let mut table = Table::new(vec![
            Column::Group("ROUTE"),
            Column::Id("KEY"),
            Column::Text("VALUE"),
        ]);
        table.add_row(vec!["app/route-with-a-long-name", "a", "1"]);
        table.add_row(vec!["", "b", "2"]);
        assert_eq!(
            finish(&table, Some(80)),
            "ROUTE                       KEY  VALUE\napp/route-with-a-long-name  a    1\n                            b    2\n"
        );
        assert_eq!(
            finish(&table, Some(20)),
            "KEY  VALUE\nroute app/route-with-a-long-name\na    1\nb    2\n"
        );
    }

    #[test]
    fn rows_of_many_chunks_are_measured_together_and_written_in_order() {
        // More rows than one batch of tasks, the widest cell in the last chunk, and groups that
        // become heading lines: every row in order, every column as wide as its widest cell.
        let rows = ROWS_PER_TASK * TASKS_PER_BATCH + ROWS_PER_TASK / 2 + 3;
        let mut table = Table::new(vec![Column::Group("G"), Column::Id("A"), Column::Text("B")]);
        for row in 0..rows {
            let name = if row == rows - 1 {
                "the-widest-name".to_string()
            } else {
                format!("r{row}")
            };
            let group = if row % 1000 == 0 {
                format!("g{row}")
            } else {
                String::new()
            };
            table.add_row(vec![group, name, format!("text of row {row}")]);
        }
        let text = finish(&table, None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), rows + 1);
        // The group column is as wide as its widest heading (`g5000` or more) and a gap.
        let g = format!("g{}", (rows - 1) / 1000 * 1000).len() + GAP;
        assert_eq!(lines[0], format!("{:<g$}{:<17}B", "G", "A"));
        assert_eq!(lines[1], format!("{:<g$}{:<17}text of row 0", "g0", "r0"));
        assert_eq!(
            lines[5000],
            format!("{:<g$}{:<17}text of row 4999", "", "r4999")
        );
        assert_eq!(
            lines[rows],
            format!(
                "{:<g$}{:<17}text of row {}",
                "",
                "the-widest-name",
                rows - 1
            )
        );
        // Narrow: headings before grouped rows, free text stacked, still in row order.
        let narrow = finish(&table, Some(20));
        let narrow: Vec<&str> = narrow.lines().collect();
        assert_eq!(&narrow[..4], ["A", "    B", "g g0", "r0"]);
        assert_eq!(narrow[4], "    text of row 0");
        assert_eq!(narrow[5], "r1");
        let headings = narrow.iter().filter(|l| l.starts_with("g g")).count();
        assert_eq!(headings, rows.div_ceil(1000));
        assert_eq!(narrow.len(), 2 + headings + 2 * rows);
    }

    #[test]
    fn rows_keep_one_cell_per_column_and_writing_streams_what_finish_returns() {
        let mut table = Table::new(vec![Column::Group("G"), Column::Id("A"), Column::Text("B")]);
        table.add_row(vec!["g1", "x"]);
        table.add_row(vec!["", "yy", "zzz", "ignored"]);
        assert_eq!(table.row_count(), 2);
        assert_eq!(table.cell(0, 2), "");
        assert_eq!(table.cell(1, 1), "yy");
        assert_eq!(finish(&table, None), "G   A   B\ng1  x\n    yy  zzz\n");
        for width in [None, Some(80), Some(6)] {
            let mut out = Vec::new();
            write(&table, width, &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), finish(&table, width));
        }
        // Too narrow: the group goes to heading lines, free text under its row.
        assert_eq!(finish(&table, Some(6)), "A\n    B\ng g1\nx\nyy\n    z…\n");
    }

    #[test]
    fn cells_read_back_across_blocks_and_longer_than_one() {
        // Cells that fill blocks unevenly, empty ones, and one longer than a block.
        let cell = |row: usize, column: usize| match (row, column) {
            (700, 1) => "x".repeat(BLOCK_BYTES + 5),
            (_, 0) if row % 3 == 0 => String::new(),
            _ => format!("{row}-{column}-").repeat(1 + row % 97),
        };
        let rows = 1500;
        let mut table = Table::new(vec![Column::Id("A"), Column::Id("B"), Column::Text("C")]);
        for row in 0..rows {
            table.add_row((0..3).map(|column| cell(row, column)).collect());
        }
        assert!(table.blocks.len() > 3, "{} blocks", table.blocks.len());
        assert!(table.blocks.iter().all(|b| b.len() <= b.capacity()));
        for row in 0..rows {
            for column in 0..3 {
                assert_eq!(table.cell(row, column), cell(row, column), "{row} {column}");
            }
        }
    }

    #[test]
    fn late_cells_are_written_as_the_cells_they_were_measured_as() {
        // The same rows kept whole and added late: the same text at every width, with the
        // group column turned into headings and free text stacked.
        let columns = vec![Column::Group("G"), Column::Text("T"), Column::Id("PLACE")];
        let (mut whole, mut late) = (Table::new(columns.clone()), Table::new(columns));
        let places: Vec<String> = (0..50)
            .map(|row| {
                (0..row % 4 + 1)
                    .map(|l| format!("path-number-{row}-{l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        for (row, place) in places.iter().enumerate() {
            let group = if row % 10 == 0 {
                format!("group-{row}")
            } else {
                String::new()
            };
            let text = format!("free text of row {row}");
            whole.add_row(vec![group.as_str(), &text, place]);
            late.add_row_late(vec![group.as_str(), &text], place);
        }
        let fill = |row: usize, out: &mut String| out.push_str(&places[row]);
        for width in [None, Some(200), Some(30), Some(12)] {
            let mut out = Vec::new();
            write_late(&late, width, &mut out, &fill).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                finish(&whole, width),
                "{width:?}"
            );
        }
        assert_eq!(late.cell(3, 2), "", "a late cell's text is not kept");
    }

    #[test]
    fn printable_ascii_is_measured_by_length_and_the_rest_by_unicode_width() {
        assert_eq!(width_of("route-1 → x"), "route-1 → x".width());
        assert_eq!(width_of("a\tb"), "a\tb".width());
        assert_eq!(width_of("plain text"), 10);
        assert!(matches!(truncate("short", 10), Cow::Borrowed("short")));
    }

    #[test]
    fn cells_of_several_lines_and_wide_characters() {
        let mut table = Table::new(vec![Column::Id("A"), Column::Text("B")]);
        table.add_row(vec!["x\ny", "→ é"]);
        assert_eq!(finish(&table, None), "A  B\nx  → é\ny\n");
        assert_eq!(truncate("→→→→", 3), "→→…");
    }
}
