//! The expansion snapshot: a small kernel expanded and pretty-printed, compared with
//! `tests/snapshots/histogram.expanded.rs` so a change in generated code shows in
//! review. `KTC_BLESS=1 cargo test -p ktc-macros` rewrites the snapshot.

use std::path::PathBuf;

use proc_macro2::TokenStream;

const ARGS: &str = r#"
    axes(n = data.len(), k = bins),
    sweep(n = [1_000, 100_000], k = [4, 64]),
"#;

const KERNEL: &str = r#"
pub mod histogram {
    use super::*;

    #[inputs]
    pub fn inputs(n: usize, k: usize) -> (Vec<u32>, usize, Vec<u64>) {
        ((0..n as u32).map(|i| i % k as u32).collect(), k, vec![0; k])
    }

    #[variant(reference)]
    pub fn serial(data: &[u32], bins: usize, out: &mut [u64]) {
        for &d in data {
            out[d as usize % bins] += 1;
        }
    }

    #[variant(block_size = [4096, 65536])]
    pub fn parallel(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) {
        for chunk in data.chunks(block_size) {
            serial(chunk, bins, out);
        }
    }

    #[variant(requires = cuda, block_size = [128, 256], default)]
    pub fn gpu(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) {
        parallel(data, bins, out, block_size)
    }
}
"#;

fn expand(args: &str, item: &str) -> String {
    let args: TokenStream = args.parse().expect("args tokens");
    let item: TokenStream = item.parse().expect("item tokens");
    // A fixed crate, so the snapshot does not move with this crate's own sources.
    let sources = crate::sources::CrateSources {
        files: vec![("src/lib.rs".into(), "0123456789abcdef".into())],
        dependencies: vec![("rayon".into(), "1.12.0".into())],
        features: vec!["default".into(), "simd".into()],
    };
    let out = crate::expand::tunable_in(args, item, &sources);
    let file: syn::File = syn::parse2(out).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn histogram_expansion_matches_snapshot() {
    let actual = expand(ARGS, KERNEL);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/histogram.expanded.rs");
    if std::env::var_os("KTC_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "the expansion differs from {}; review the change and rerun with KTC_BLESS=1\n--- actual ---\n{actual}",
        path.display()
    );
}

#[test]
fn errors_keep_the_module() {
    let out = expand("axes(n = data.len()), sweep(m = [1])", KERNEL);
    assert!(out.contains("pub mod histogram"), "{out}");
    assert!(out.contains("compile_error"), "{out}");
    assert!(!out.contains("#[variant"), "helper attributes are stripped: {out}");
}
