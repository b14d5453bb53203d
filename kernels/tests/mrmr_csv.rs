//! CSV loading for MRMR: which columns count as discrete, labels, quantile bins, and
//! errors that say where the file is wrong.

use ktc_kernels::column::HostCodes;
use ktc_kernels::data::csv::{CsvOptions, load, parse};
use ktc_kernels::data::{ColumnKind, DataError};

fn options(target: &str) -> CsvOptions {
    CsvOptions { target: target.into(), bins: 4, discrete: false }
}

fn column(codes: &ktc_kernels::Codes, j: usize) -> Vec<u8> {
    match codes.host_column(j).unwrap().host().unwrap() {
        HostCodes::U8(d) => d.to_vec(),
        HostCodes::U16(d) => d.iter().map(|&c| c as u8).collect(),
    }
}

#[test]
fn integer_columns_are_codes_reals_are_binned_text_is_labels() {
    let text = "pixel,height,colour,class\n\
                0,1.5,red,3\n\
                255,2.5,blue,1\n\
                128,0.5,red,3\n\
                0,3.5,green,2\n";
    let data = parse(text, &options("class")).unwrap();
    assert_eq!(data.feature_names, ["pixel", "height", "colour"]);
    assert_eq!(data.target_name, "class");
    assert_eq!(
        data.feature_kinds,
        [
            ColumnKind::Discrete { levels: 3 },
            ColumnKind::Binned { bins: 4 },
            ColumnKind::Labels { levels: 3 }
        ]
    );
    // Codes are ranks among the distinct values (or labels), in sorted order.
    assert_eq!(column(&data.features, 0), [0, 2, 1, 0]);
    assert_eq!(column(&data.features, 1), [1, 2, 0, 3]);
    assert_eq!(column(&data.features, 2), [2, 0, 2, 1]);
    assert_eq!(column(&data.target, 0), [2, 0, 2, 1]);
    assert_eq!((data.features.bins(), data.target.bins()), (4, 3));
}

#[test]
fn more_than_256_integers_are_binned_unless_forced() {
    let mut text = String::from("id,y\n");
    for i in 0..300 {
        text.push_str(&format!("{i},{}\n", i % 2));
    }
    let data = parse(&text, &options("y")).unwrap();
    assert_eq!(data.feature_kinds, [ColumnKind::Binned { bins: 4 }]);
    let forced = CsvOptions { discrete: true, ..options("y") };
    let err = parse(&text, &forced).unwrap_err();
    assert!(
        matches!(err, DataError::TooManyLevels { ref column, levels: 300, .. } if column == "id"),
        "{err}"
    );
}

#[test]
fn forced_discrete_rejects_a_fraction_with_its_line_and_column() {
    let text = "a,b,y\n1,2,0\n3,4.5,1\n";
    let err = parse(text, &CsvOptions { discrete: true, ..options("y") }).unwrap_err();
    assert_eq!(
        err,
        DataError::Csv { line: 3, column: 2, name: Some("b".into()), message: err_message(&err) }
    );
    assert!(err.to_string().starts_with("line 3, column 2 (`b`)"), "{err}");
    assert!(err.to_string().contains("4.5"), "{err}");
}

fn err_message(e: &DataError) -> String {
    match e {
        DataError::Csv { message, .. } => message.clone(),
        other => panic!("not a CSV error: {other}"),
    }
}

#[test]
fn a_word_in_a_numeric_column_names_line_and_column() {
    let text = "a,b,y\n1,2,0\n\n3,oops,1\n";
    let err = parse(text, &options("y")).unwrap_err();
    let DataError::Csv { line, column, .. } = &err else { panic!("{err}") };
    assert_eq!((*line, *column), (4, 2), "blank lines still count: {err}");
    assert!(err.to_string().contains("`oops` is not a number"), "{err}");
}

#[test]
fn nan_and_empty_cells_are_errors() {
    let err = parse("a,y\n1,0\nNaN,1\n", &options("y")).unwrap_err();
    assert!(err.to_string().starts_with("line 3, column 1 (`a`)"), "{err}");
    let err = parse("a,y\n1,0\n2,\n", &options("y")).unwrap_err();
    assert!(err.to_string().contains("line 3, column 2 (`y`): empty value"), "{err}");
}

#[test]
fn a_short_row_names_its_line() {
    let err = parse("a,b,y\n1,2,0\n1,2\n", &options("y")).unwrap_err();
    assert_eq!(err.to_string(), "line 3: expected 3 fields like the header, found 2");
}

#[test]
fn an_unknown_target_lists_the_columns() {
    let err = parse("a,b\n1,2\n", &options("label")).unwrap_err();
    assert_eq!(err.to_string(), "no column named `label`; the columns are: a, b");
}

#[test]
fn quoted_fields_and_crlf() {
    let text = "\"name, full\",y\r\n\"x \"\"1\"\"\",0\r\n\"z\",1\r\n";
    let data = parse(text, &options("y")).unwrap();
    assert_eq!(data.feature_names, ["name, full"]);
    assert_eq!(data.feature_kinds, [ColumnKind::Labels { levels: 2 }]);
    let err = parse("a,y\n\"open,1\n", &options("y")).unwrap_err();
    assert!(err.to_string().contains("line 2, column 1 (`a`): unterminated quoted field"), "{err}");
}

#[test]
fn empty_files_and_bad_bins_are_errors() {
    assert!(matches!(parse("", &options("y")), Err(DataError::Empty(_))));
    assert!(matches!(parse("a,y\n", &options("y")), Err(DataError::Empty(_))));
    assert!(matches!(parse("y\n1\n", &options("y")), Err(DataError::Empty(_))));
    assert!(matches!(
        parse("a,y\n1,0\n", &CsvOptions { bins: 0, ..options("y") }),
        Err(DataError::Invalid(_))
    ));
}

#[test]
fn a_missing_file_is_an_io_error_with_its_path() {
    let err = load(std::path::Path::new("/nonexistent/data.csv"), &options("y")).unwrap_err();
    assert!(err.to_string().starts_with("cannot read /nonexistent/data.csv"), "{err}");
}

#[test]
fn a_loaded_file_selects_like_parsed_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.csv");
    std::fs::write(&path, "a,b,y\n0,1,0\n1,1,1\n0,0,0\n1,0,1\n").unwrap();
    let data = load(&path, &options("y")).unwrap();
    let s = ktc_kernels::mrmr::select(
        &data.target,
        &data.features,
        1,
        ktc_kernels::mrmr::Criterion::Mid,
        ktc_kernels::mrmr::HistStrategy::Dispatched,
    )
    .unwrap();
    assert_eq!(s.features(), [0], "a equals y");
}
