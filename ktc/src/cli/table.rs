//! Plain-text tables: columns padded to their widest cell.

/// Formats `rows` (the first is the header) as left-aligned columns separated by two
/// spaces, one line each. Width counts characters, so `≤` and `µ` take one column.
pub(crate) fn render(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c + 1 == row.len() {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', widths[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A duration in nanoseconds with a readable unit: `850 ns`, `12.3 µs`, `4.56 ms`, `1.20 s`.
pub(crate) fn duration(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.1} µs", n / 1e3),
        n if n < 1e9 => format!("{:.2} ms", n / 1e6),
        // Beyond days, an exponent keeps the cell short (a hostile 9e307 ns included).
        n if n < 1e15 => format!("{:.2} s", n / 1e9),
        n => format!("{:.2e} s", n / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up() {
        let rows =
            vec![vec!["a".into(), "bb".into(), "c".into()], vec!["ddd".into(), "≤".into(), "e".into()]];
        assert_eq!(render(&rows), "a    bb  c\nddd  ≤   e\n");
    }

    #[test]
    fn durations_pick_a_unit() {
        assert_eq!(duration(850.0), "850 ns");
        assert_eq!(duration(12_345.0), "12.3 µs");
        assert_eq!(duration(4_560_000.0), "4.56 ms");
        assert_eq!(duration(1.2e9), "1.20 s");
        assert_eq!(duration(9e307), "9.00e298 s");
    }
}
