//! Plain, kubectl-style tables (no borders, two spaces between columns) sized to a width.
//!
//! Columns are of two sorts: identifiers (listener, route rule, kind, rule key, policy), which
//! are never cut because a cut name can no longer be searched for, and free text (values,
//! messages, reasons), which shares the room the identifiers leave and is cut with `…` when it
//! does not fit. When the identifiers leave too little room, free text goes on an indented line
//! of its own under each row, cut to the width; when the identifiers alone are wider than the
//! room, free text keeps a small minimum and the row is as wide as it has to be.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The fewest columns a free-text column keeps beside the identifiers (fewer when its text is
/// shorter); with less room it goes on lines of its own.
const MIN_TEXT_WIDTH: usize = 32;

/// The indentation of free text on lines of its own.
const STACK_INDENT: &str = "    ";

/// Spaces between two columns.
const GAP: usize = 2;

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

/// A row: cells, or a heading line across the table (a group, in a narrow table).
#[derive(Clone, Debug)]
enum Row {
    Cells(Vec<String>),
    Heading(String),
}

/// A table being filled. Cells may hold several lines (`\n`).
#[derive(Clone, Debug)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Row>,
}

impl Table {
    /// A borderless table with these columns.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
        }
    }

    /// Adds a row (one cell per column; missing cells are empty).
    pub fn add_row<S: Into<String>>(&mut self, cells: Vec<S>) {
        self.rows
            .push(Row::Cells(cells.into_iter().map(Into::into).collect()));
    }

    /// How many rows were added.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// The widest line of each column's header and cells.
    fn natural_widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.header().width()).collect();
        for row in &self.rows {
            let Row::Cells(row) = row else { continue };
            for (width, cell) in widths.iter_mut().zip(row) {
                for line in cell.lines() {
                    *width = (*width).max(line.width());
                }
            }
        }
        widths
    }

    /// The width of each column within `limit`, and whether free text goes on lines of its
    /// own: identifiers keep their width; free-text columns share what is left, narrow ones
    /// first. When that leaves a free-text column less than its minimum but the identifiers fit,
    /// free text is stacked under each row, indented, with the whole width; when the identifiers
    /// alone do not fit, free text keeps its minimum and the row overflows.
    fn widths(&self, limit: Option<usize>) -> (Vec<usize>, bool) {
        let mut widths = self.natural_widths();
        let Some(limit) = limit else {
            return (widths, false);
        };
        let gaps = GAP * widths.len().saturating_sub(1);
        if widths.iter().sum::<usize>() + gaps <= limit {
            return (widths, false);
        }
        let is_text = |i: usize| matches!(self.columns[i], Column::Text(_));
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

impl Table {
    /// The table without its group columns, a heading line before each group instead.
    fn with_headings(&self) -> Table {
        let grouped = |i: usize| matches!(self.columns[i], Column::Group(_));
        let mut rows = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let Row::Cells(cells) = row else {
                rows.push(row.clone());
                continue;
            };
            let heading: Vec<String> = cells
                .iter()
                .enumerate()
                .filter(|(i, cell)| grouped(*i) && !cell.is_empty())
                .map(|(i, cell)| format!("{} {cell}", self.columns[i].header().to_lowercase()))
                .collect();
            if !heading.is_empty() {
                rows.push(Row::Heading(heading.join(", ")));
            }
            rows.push(Row::Cells(
                cells
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !grouped(*i))
                    .map(|(_, c)| c.clone())
                    .collect(),
            ));
        }
        Table {
            columns: self
                .columns
                .iter()
                .copied()
                .filter(|c| !matches!(c, Column::Group(_)))
                .collect(),
            rows,
        }
    }
}

/// `text` cut to `width` columns, ending with `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
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
    out
}

/// The table as text within `width` (`None`: no limit), trailing spaces removed, ending with a
/// newline.
pub fn finish(table: &Table, width: Option<usize>) -> String {
    let (widths, stacked) = table.widths(width);
    let fits = !stacked
        && width.is_none_or(|w| {
            widths.iter().sum::<usize>() + GAP * widths.len().saturating_sub(1) <= w
        });
    if !fits && table.columns.iter().any(|c| matches!(c, Column::Group(_))) {
        return finish(&table.with_headings(), width);
    }
    let inline = |i: usize| !stacked || !matches!(table.columns[i], Column::Text(_));
    let mut out = String::new();
    let header = Row::Cells(
        table
            .columns
            .iter()
            .map(|c| c.header().to_string())
            .collect(),
    );
    for row in std::iter::once(&header).chain(&table.rows) {
        let row = match row {
            Row::Cells(cells) => cells,
            Row::Heading(text) => {
                out.push_str(text);
                out.push('\n');
                continue;
            }
        };
        let cell = |i: usize| row.get(i).map_or("", String::as_str);
        let lines = (0..widths.len())
            .filter(|&i| inline(i))
            .map(|i| cell(i).lines().count())
            .max()
            .unwrap_or(1);
        for n in 0..lines.max(1) {
            let mut line = String::new();
            for (i, width) in widths.iter().enumerate().filter(|(i, _)| inline(*i)) {
                let text = truncate(cell(i).lines().nth(n).unwrap_or(""), *width);
                line.push_str(&text);
                line.extend(std::iter::repeat_n(' ', width - text.width() + GAP));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for (i, width) in widths.iter().enumerate().filter(|(i, _)| !inline(*i)) {
            for text in cell(i).lines().filter(|t| !t.is_empty()) {
                out.push_str(STACK_INDENT);
                out.push_str(truncate(text, *width).trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// The table as text within `width`, every line after `indent` (which counts in the width).
pub fn finish_indented(table: &Table, width: Option<usize>, indent: &str) -> String {
    let inner = width.map(|w| w.saturating_sub(indent.width()));
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
    fn cells_of_several_lines_and_wide_characters() {
        let mut table = Table::new(vec![Column::Id("A"), Column::Text("B")]);
        table.add_row(vec!["x\ny", "→ é"]);
        assert_eq!(finish(&table, None), "A  B\nx  → é\ny\n");
        assert_eq!(truncate("→→→→", 3), "→→…");
    }
}
