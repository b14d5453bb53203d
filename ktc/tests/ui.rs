//! Compile-time behaviour of `#[ktc::tunable]`: every misuse is an error at its tokens
//! (`ui/fail`, with the reviewed `.stderr`), and the pass cases compile and run.
//! `TRYBUILD=overwrite cargo test -p ktc --test ui` rewrites the `.stderr` files.

#[test]
fn ui() {
    // The pass cases dispatch and sweep: keep their tuning cache out of the user's.
    let cache = std::env::temp_dir().join(format!("ktc-ui-cache-{}", std::process::id()));
    // SAFETY: this is the only test in this binary, and nothing else runs yet.
    unsafe { std::env::set_var("KTC_CACHE_DIR", &cache) };
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
    drop(t);
    let _ = std::fs::remove_dir_all(&cache);
}
