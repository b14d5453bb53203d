//! Parquet files and Arrow batches as MRMR input: columns by type, row groups in
//! order, and errors that name the column and the row group.

use std::sync::Arc;

use ktc_kernels::data::parquet::arrow_array::{
    ArrayRef, Date32Array, Float32Array, Float64Array, Int64Array, RecordBatch, StringArray,
};
use ktc_kernels::data::parquet::parquet::arrow::ArrowWriter;
use ktc_kernels::data::parquet::parquet::file::properties::WriterProperties;
use ktc_kernels::data::parquet::{read, table_from_batches};
use ktc_kernels::data::{Column, DataError};
use ktc_kernels::mrmr::{Options, select_record_batch};

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter(columns).unwrap()
}

fn sample(rows: usize) -> RecordBatch {
    let class: Vec<i64> = (0..rows).map(|i| (i % 3) as i64).collect();
    batch(vec![
        ("x", Arc::new(Float64Array::from_iter_values((0..rows).map(|i| (i % 3) as f64 + 0.25))) as ArrayRef),
        ("w", Arc::new(Float32Array::from_iter_values((0..rows).map(|i| ((i * 31) % 17) as f32)))),
        ("name", Arc::new(StringArray::from_iter_values((0..rows).map(|i| format!("n{}", i % 2))))),
        ("class", Arc::new(Int64Array::from(class))),
    ])
}

fn write(path: &std::path::Path, batches: &[RecordBatch], rows_per_group: usize) {
    let props = WriterProperties::builder().set_max_row_group_row_count(Some(rows_per_group)).build();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(path).unwrap(), batches[0].schema(), Some(props)).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
}

#[test]
fn a_file_of_several_row_groups_reads_in_order_and_selects() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.parquet");
    write(&path, &[sample(1_000)], 300);
    let table = read(&path, &|_, _| {}).unwrap();
    assert_eq!(table.names, ["x", "w", "name", "class"]);
    assert_eq!(table.n_rows(), 1_000);
    let Column::Numbers(ktc_kernels::Floats::F64(x)) = &table.columns[0] else { panic!("x") };
    assert!(x.iter().enumerate().all(|(i, &v)| v == (i % 3) as f64 + 0.25), "row order kept across groups");
    let Column::Labels { labels, .. } = &table.columns[2] else { panic!("name is labels") };
    assert_eq!(labels.len(), 2);
    let report =
        ktc_kernels::mrmr::select_table(table, "class", &Options { k: 1, ..Options::default() }).unwrap();
    assert_eq!(report.names, ["x"], "x is the class, shifted");
}

#[test]
fn a_record_batch_selects_directly() {
    let report = select_record_batch(&sample(600), "class", &Options { k: 2, ..Options::default() }).unwrap();
    assert_eq!(report.names[0], "x");
}

#[test]
fn an_unusable_type_or_a_null_names_its_column() {
    let dates = batch(vec![
        ("d", Arc::new(Date32Array::from(vec![1, 2])) as ArrayRef),
        ("y", Arc::new(Int64Array::from(vec![0, 1]))),
    ]);
    let err = table_from_batches(&[dates]).unwrap_err();
    assert!(matches!(&err, DataError::Parquet { column: Some(c), .. } if c == "d"), "{err}");
    let nulls = batch(vec![
        ("a", Arc::new(Float64Array::from(vec![Some(1.0), None])) as ArrayRef),
        ("y", Arc::new(Int64Array::from(vec![0, 1]))),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.parquet");
    write(&path, &[nulls.clone(), nulls], 2);
    let err = read(&path, &|_, _| {}).unwrap_err();
    assert_eq!(err.to_string(), "parquet, column `a`, row group 0: null at row 1 (MRMR needs every value)");
}

#[test]
fn a_file_that_is_not_parquet_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.parquet");
    std::fs::write(&path, b"a,b\n1,2\n").unwrap();
    let err = read(&path, &|_, _| {}).unwrap_err();
    assert!(err.to_string().starts_with("parquet: "), "{err}");
    assert!(matches!(read(&dir.path().join("missing.parquet"), &|_, _| {}), Err(DataError::Io { .. })));
    // Cut short, or with its pages overwritten: errors, never panics.
    let good = dir.path().join("good.parquet");
    write(&good, &[sample(2_000)], 500);
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert!(read(&path, &|_, _| {}).is_err());
    let mut garbled = bytes.clone();
    garbled[4..bytes.len() / 2].iter_mut().enumerate().for_each(|(i, b)| *b = (i * 131 % 251) as u8);
    std::fs::write(&path, &garbled).unwrap();
    let _ = read(&path, &|_, _| {});
}

/// A data set's names, kinds, bins and codes, to compare.
fn summary(d: &ktc_kernels::data::Dataset) -> impl PartialEq + std::fmt::Debug {
    use ktc_kernels::column::HostCodes;
    let bytes = |c: &ktc_kernels::Codes| match c.host() {
        Some(HostCodes::U8(b)) => b.to_vec(),
        other => panic!("host u8 codes expected, got {}", other.is_some()),
    };
    let kinds = format!("{:?}", d.feature_kinds);
    (
        d.target_name.clone(),
        d.feature_names.clone(),
        kinds,
        d.target.bins(),
        d.features.bins(),
        bytes(&d.target),
        bytes(&d.features),
    )
}

/// Column by column, binned as decoded: the same data set as reading the table first,
/// for every column type and the target in any place; the same errors.
#[test]
fn the_streamed_load_equals_read_then_encode() {
    use ktc_kernels::data::EncodeOptions;
    use ktc_kernels::data::parquet::{load, load_streamed};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.parquet");
    let rows = 5_000;
    let mut rng = ktc_kernels::data::SplitMix64::new(3);
    let real: Vec<f64> = (0..rows).map(|_| rng.unit() * 10.0 - 5.0).collect();
    let mut columns = sample(rows).columns().to_vec();
    columns.push(Arc::new(Float64Array::from(real)));
    let names = ["x", "w", "name", "class", "real"];
    write(&path, &[batch(names.iter().copied().zip(columns).collect())], 1_300);
    for target in names {
        for options in
            [EncodeOptions { bins: 4, discrete: false }, EncodeOptions { bins: 256, discrete: false }]
        {
            let expected = load(&path, target, options).unwrap();
            let streamed = load_streamed(&path, target, options, &|_, _| {}).unwrap();
            assert_eq!(summary(&streamed.data), summary(&expected), "target {target}, {options:?}");
        }
        let discrete = EncodeOptions { bins: 8, discrete: true };
        assert_eq!(
            load_streamed(&path, target, discrete, &|_, _| {}).unwrap_err(),
            load(&path, target, discrete).unwrap_err(),
            "target {target}, discrete"
        );
    }
    let options = EncodeOptions::default();
    assert_eq!(
        load_streamed(&path, "nope", options, &|_, _| {}).unwrap_err(),
        load(&path, "nope", options).unwrap_err()
    );
    let nulls = batch(vec![
        ("a", Arc::new(Float64Array::from(vec![Some(1.0), None])) as ArrayRef),
        ("y", Arc::new(Int64Array::from(vec![0, 1]))),
    ]);
    write(&path, &[nulls.clone(), nulls], 2);
    let err = load_streamed(&path, "y", options, &|_, _| {}).unwrap_err();
    assert_eq!(err.to_string(), "parquet, column `a`, row group 0: null at row 1 (MRMR needs every value)");
}
