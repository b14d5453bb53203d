//! What the variants run beyond their module, read when the macro expands: the token
//! hash of every source file of the kernel's crate, and its resolved dependencies
//! ([`crate::lockfile`]). Recorded in the kernel's identity so that editing a helper
//! outside the `#[tunable]` module retires its tuning, while a comment edit does not.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The crate the kernel is defined in, as far as its tuning depends on it.
#[derive(Clone, Debug, Default)]
pub(crate) struct CrateSources {
    /// `(path relative to the root with '/', token hash)`, sorted by path.
    pub(crate) files: Vec<(String, String)>,
    /// `(package, version)` of every dependency, transitively, sorted.
    pub(crate) dependencies: Vec<(String, String)>,
    /// The features the package declares (`[features]` of its `Cargo.toml`), sorted:
    /// generated code records which are on, as they change what is compiled.
    pub(crate) features: Vec<String>,
}

impl CrateSources {
    /// The sources of the crate being compiled (from `CARGO_MANIFEST_DIR` and
    /// `CARGO_PKG_NAME`/`CARGO_PKG_VERSION`); empty where cargo did not set them.
    pub(crate) fn of_current_crate() -> CrateSources {
        let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
            return CrateSources::default();
        };
        let files = scan(&root);
        let name = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
        let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
        let dependencies = crate::lockfile::dependencies(&root, &name, &version);
        let features =
            std::fs::read_to_string(root.join("Cargo.toml")).map_or_else(|_| Vec::new(), |t| features(&t));
        CrateSources { files, dependencies, features }
    }
}

/// The keys of a manifest's `[features]` table: each line `name = ...` up to the next
/// table header (array continuation lines start with a quote or `]`, never a key).
fn features(manifest: &str) -> Vec<String> {
    let mut in_features = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') && !line.starts_with("[\"") {
            in_features = line == "[features]";
            continue;
        }
        let Some((key, _)) = line.split_once('=') else { continue };
        let key = key.trim();
        let is_key =
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if in_features && is_key {
            names.push(key.to_owned());
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Deep enough for any real crate, shallow enough to stop a symlink loop.
const MAX_DEPTH: usize = 16;

/// Every `.rs` file under `root/src`, hashed; unreadable files are left out (the
/// compiler will complain about them if they matter).
fn scan(root: &Path) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    collect(&root.join("src"), 0, &mut paths);
    let mut files: Vec<(String, String)> = paths
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(root).ok()?;
            let rel: Vec<&str> = rel.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>()?;
            let text = std::fs::read_to_string(&path).ok()?;
            Some((rel.join("/"), file_hash(&text)))
        })
        .collect();
    files.sort();
    files
}

fn collect(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && depth < MAX_DEPTH {
            collect(&path, depth + 1, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The hash of a file's tokens, or of its bytes where it does not lex.
pub(crate) fn file_hash(text: &str) -> String {
    match TokenStream::from_str(text) {
        Ok(tokens) => token_hash(&[&tokens]),
        Err(_) => {
            let mut h = Fnv::new();
            h.write(text.as_bytes());
            h.hex()
        }
    }
}

/// FNV-1a (64 bit) over the tokens' text without doc comments (`#[doc = "..."]`, which
/// `///` and `//!` become) and without spacing: stable across builds and hosts, blind
/// to comments and formatting, changed by any edit to the code. 16 hex digits.
pub(crate) fn token_hash(parts: &[&TokenStream]) -> String {
    let mut h = Fnv::new();
    for part in parts {
        hash_stream(&mut h, part);
        h.write(&[0xff]);
    }
    h.hex()
}

fn hash_stream(h: &mut Fnv, tokens: &TokenStream) {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        if let Some(len) = doc_attribute_len(&trees[i..]) {
            i += len;
            continue;
        }
        match &trees[i] {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                h.token(open);
                hash_stream(h, &g.stream());
                h.token(close);
            }
            TokenTree::Ident(ident) => h.token(&ident.to_string()),
            TokenTree::Punct(p) => h.token(p.as_char().encode_utf8(&mut [0; 4])),
            TokenTree::Literal(lit) => h.token(&lit.to_string()),
        }
        i += 1;
    }
}

/// The number of trees of a `#[doc = ...]` or `#![doc = ...]` at the start, if any.
fn doc_attribute_len(trees: &[TokenTree]) -> Option<usize> {
    let TokenTree::Punct(hash) = trees.first()? else { return None };
    if hash.as_char() != '#' {
        return None;
    }
    let inner = matches!(trees.get(1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let at = if inner { 2 } else { 1 };
    let TokenTree::Group(g) = trees.get(at)? else { return None };
    if g.delimiter() != Delimiter::Bracket {
        return None;
    }
    let mut body = g.stream().into_iter();
    let is_doc = matches!(body.next(), Some(TokenTree::Ident(i)) if i == "doc")
        && matches!(body.next(), Some(TokenTree::Punct(p)) if p.as_char() == '=');
    is_doc.then_some(at + 1)
}

/// FNV-1a, 64 bit: tiny, dependency-free and stable (std's hashers promise neither).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A token and a separator, so `ab c` and `a bc` differ.
    fn token(&mut self, text: &str) {
        self.write(text.as_bytes());
        self.write(&[0]);
    }

    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_formatting_do_not_count() {
        let a = "/// Adds.\nfn add(a: u32, b: u32) -> u32 { a + b } // plain\n";
        let b =
            "//! A module.\n/** Adds, differently. */\nfn add(a:u32,b:u32)->u32{\n    /* inner */ a+b\n}\n";
        assert_eq!(file_hash(a), file_hash(b));
        assert_ne!(file_hash(a), file_hash("fn add(a: u32, b: u32) -> u32 { a - b }"));
        // `#[doc(hidden)]` is code, not a comment.
        assert_ne!(file_hash("#[doc(hidden)] fn f() {}"), file_hash("fn f() {}"));
        assert_eq!(file_hash(a).len(), 16);
    }

    #[test]
    fn declared_features_are_read_from_the_manifest() {
        let manifest = "[package]\nname = \"k\"\n\n[features]\n# comment = x\ndefault = [\"cuda\"]\ncuda = [\n    \"dep:cudarc\",\n]\nsimd = []\n\n[dependencies]\nrayon = \"1\"\n";
        assert_eq!(features(manifest), ["cuda", "default", "simd"]);
        assert!(features("[package]\nname = \"k\"\n").is_empty());
    }

    #[test]
    fn scans_every_rs_file_under_src_by_relative_path() {
        let root = std::env::temp_dir().join(format!("ktc-macros-scan-{}", std::process::id()));
        std::fs::create_dir_all(root.join("src/inner")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "mod inner;").unwrap();
        std::fs::write(root.join("src/inner/mod.rs"), "pub fn f() {}").unwrap();
        std::fs::write(root.join("src/notes.txt"), "not rust").unwrap();
        let files = scan(&root);
        std::fs::remove_dir_all(&root).unwrap();
        let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["src/inner/mod.rs", "src/lib.rs"]);
        assert_eq!(files[1].1, file_hash("mod inner;"));
    }
}
