//! The CSV reader against files built to break it: a line of millions of fields,
//! invalid UTF-8, a byte-order mark, a word atop a numeric column, duplicate names,
//! line breaks inside quotes, and reading in blocks.

use std::io::Read;

use ktc_kernels::data::csv::{BLOCK, CsvOptions, load, parse, read_from};
use ktc_kernels::data::{Column, ColumnKind, DataError};

fn options(target: &str) -> CsvOptions {
    CsvOptions { target: target.into(), bins: 4, discrete: false }
}

/// A header, one good row, then a second data line of `1,` repeated without end: a
/// reader that holds a whole line before counting its fields never returns.
struct EndlessLine {
    head: &'static [u8],
    served: usize,
}

impl Read for EndlessLine {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let at = self.served + n;
            buf[n] = if at < self.head.len() {
                self.head[at]
            } else if (at - self.head.len()).is_multiple_of(2) {
                b'1'
            } else {
                b','
            };
            n += 1;
        }
        self.served += n;
        Ok(n)
    }
}

#[test]
fn an_endless_line_fails_at_its_first_excess_field_after_one_block() {
    let mut source = EndlessLine { head: b"a,b,y\n1,2,0\n", served: 0 };
    let err = read_from(&mut source, 0, false, &|_, _| {}).unwrap_err();
    assert_eq!(
        err,
        DataError::Csv {
            line: 3,
            column: 4,
            name: None,
            message: "expected 3 fields like the header, found more".into()
        }
    );
    assert!(source.served <= 2 * BLOCK, "read {} bytes before failing", source.served);
}

/// A source of one byte repeated without end, after a head.
struct Endless {
    head: &'static [u8],
    byte: u8,
    served: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for (i, b) in buf.iter_mut().enumerate() {
            *b = self.head.get(self.served + i).copied().unwrap_or(self.byte);
        }
        self.served += buf.len();
        Ok(buf.len())
    }
}

#[test]
fn an_endless_header_or_field_fails_within_a_few_blocks() {
    let mut header = Endless { head: b"", byte: b'a', served: 0 };
    let err = read_from(&mut header, 0, false, &|_, _| {}).unwrap_err();
    assert!(err.to_string().starts_with("line 1: the header line is longer than"), "{err}");
    assert!(header.served <= 4 * BLOCK, "read {} bytes", header.served);
    let mut field = Endless { head: b"a,y\n1,", byte: b'7', served: 0 };
    let err = read_from(&mut field, 0, false, &|_, _| {}).unwrap_err();
    assert!(err.to_string().starts_with("line 2, column 2 (`y`): a field longer than"), "{err}");
    assert!(field.served <= 2 * BLOCK, "read {} bytes", field.served);
}

#[test]
fn a_long_line_in_a_file_fails_at_its_fourth_field() {
    let mut text = String::from("a,b,y\n1,2,0\n");
    text.push_str(&"1,".repeat(200_000));
    text.push_str("1\n");
    let err = parse(&text, &options("y")).unwrap_err();
    assert_eq!(err.to_string(), "line 3, column 4: expected 3 fields like the header, found more");
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.csv");
    std::fs::write(&path, b"a,b,y\n1,x,0\n2,\xff\xfe,1\n").unwrap();
    let err = load(&path, &options("y")).unwrap_err();
    assert!(err.to_string().starts_with("line 3, column 2 (`b`): invalid UTF-8"), "{err}");
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_first_name() {
    let data = parse("\u{FEFF}a,y\n1,0\n2,1\n", &options("y")).unwrap();
    assert_eq!(data.feature_names, ["a"]);
    let data = parse("\u{FEFF}y,a\n1,0\n2,1\n", &options("y")).unwrap();
    assert_eq!(data.target_name, "y");
}

#[test]
fn a_word_atop_a_numeric_column_is_a_bad_number_not_a_discrete_problem() {
    let mut text = String::from("a,y\nabc,0\n");
    for i in 0..300 {
        text.push_str(&format!("{}.5,{}\n", i, i % 2));
    }
    let err = parse(&text, &options("y")).unwrap_err();
    assert!(err.to_string().starts_with("line 2, column 1 (`a`): `abc` is not a number"), "{err}");
    assert!(!err.to_string().contains("--discrete"), "{err}");
}

#[test]
fn too_many_text_labels_do_not_blame_discrete() {
    let mut text = String::from("a,y\n");
    for i in 0..300 {
        text.push_str(&format!("id{i},{}\n", i % 2));
    }
    let err = parse(&text, &options("y")).unwrap_err();
    assert!(matches!(err, DataError::TooManyLevels { labels: true, levels: 300, .. }), "{err}");
    assert!(!err.to_string().contains("--discrete"), "{err}");
}

#[test]
fn duplicate_column_names_are_rejected() {
    let err = parse("a,b,a,y\n1,2,3,0\n", &options("y")).unwrap_err();
    assert_eq!(err.to_string(), "line 1, column 3: duplicate column name `a` (also column 1)");
}

#[test]
fn a_quoted_field_may_hold_a_line_break_and_later_lines_still_count() {
    let data = parse("a,y\n\"two\nlines\",0\n\"z\",1\n", &options("y")).unwrap();
    assert_eq!(data.feature_kinds, [ColumnKind::Labels { levels: 2 }]);
    let err = parse("a,y\n\"two\nlines\",0\nz,\n", &options("y")).unwrap_err();
    assert!(err.to_string().starts_with("line 4, column 2 (`y`): empty value"), "{err}");
}

#[test]
fn blocks_and_pieces_join_into_the_same_columns() {
    // More than one block and many pieces: every row arrives once, in order.
    let rows = BLOCK / 10 + 123;
    let mut text = String::with_capacity(rows * 24);
    text.push_str("x,label,y\n");
    for i in 0..rows {
        text.push_str(&format!("{i},\"l{}\",{}\n", i % 3, i % 2));
    }
    let table = read_from(text.as_bytes(), 0, false, &|_, _| {}).unwrap();
    assert_eq!(table.n_rows(), rows);
    let Column::Numbers(x) = &table.columns[0] else { panic!("x is numbers") };
    let ktc_kernels::Floats::F64(x) = x else { panic!("f64") };
    assert!(x.iter().enumerate().all(|(i, &v)| v == i as f64));
    let Column::Labels { codes, labels } = &table.columns[1] else { panic!("labels") };
    assert!(codes.iter().enumerate().all(|(i, &c)| labels[c as usize] == format!("l{}", i % 3)));
}

#[test]
fn a_bad_value_blocks_later_names_its_line() {
    // Lines are counted piece by piece while the next block is read: an error several
    // blocks on (after a quoted line break, which is a line too) still names its line.
    let rows = 2 * BLOCK / 10 + 77;
    let mut text = String::with_capacity(rows * 16);
    text.push_str("x,name,y\n0,\"two\nlines\",0\n");
    for i in 0..rows {
        text.push_str(&format!("{},n{},{}\n", i % 1000, i % 3, i % 2));
    }
    text.push_str("oops,n,1\n");
    let err = read_from(text.as_bytes(), 0, false, &|_, _| {}).unwrap_err();
    let line = rows + 4;
    assert!(err.to_string().starts_with(&format!("line {line}, column 1 (`x`)")), "{err}");
}
