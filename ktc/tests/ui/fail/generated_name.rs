//! User items named like the items `#[tunable]` generates.

#[ktc::tunable(axes(n = x.len()), sweep(n = [16, 256]))]
pub mod clash {
    use std::fmt::Display as explain;

    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u32>,) {
        (vec![1; n],)
    }

    #[variant(reference)]
    pub fn serial(x: &[u32]) -> u32 {
        x.iter().sum()
    }

    /// A helper that happens to be called `call`.
    pub fn call(x: &[u32]) -> u32 {
        serial(x)
    }

    pub struct Variant;
}

fn main() {}
